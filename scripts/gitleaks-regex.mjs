// Go (RE2) regular expressions, as gitleaks writes them, to JavaScript ones with the same meaning
// for the syntax gitleaks uses, and the check that shows each one safe for a backtracking engine.
// Used by scripts/refresh-gitleaks-rules.mjs (which writes both forms) and by the test that
// proves the data file is what this translation gives.
//
// Why not RE2 at run time: re2-wasm compiles gitleaks' 221 expressions in ~1.8 s (one alone takes
// 190 ms), and its fixed 16 MB heap runs out once their DFA caches fill (measured). The JavaScript
// engine backtracks, so an expression is admitted only when it is safe for it (see `unsafeReason`),
// and it only ever runs on a bounded window of text (src/audit/secret-gitleaks.ts).

/** Letters of `c` in both cases, as class content. */
function both(c) {
  const lo = c.toLowerCase();
  const up = c.toUpperCase();
  return lo === up ? escapeInClass(c) : `${lo}${up}`;
}
const escapeInClass = (c) => (/[\]\\^-]/.test(c) ? `\\${c}` : c);

const POSIX = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  space: '\\t\\n\\v\\f\\r ',
  xdigit: '0-9a-fA-F',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
};

/**
 * Translates one Go expression. Case folding (`(?i)`, `(?i:…)`, `(?-i:…)`, also mid-group) is
 * written out as `[aA]` classes, since JavaScript has no scoped flags; `(?s:…)` makes `.` match
 * newlines; `\z` and `\A` become `$` and `^` (no `m` flag). Throws on syntax it does not know.
 */
export function goToJs(src) {
  let i = 0;
  // A stack of groups: each holds the case-folding and dot-all state in force inside it.
  const stack = [{ fold: false, dotAll: false }];
  const state = () => stack[stack.length - 1];
  let out = '';
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') {
      const e = src[i + 1];
      if (e === 'z') out += '$';
      else if (e === 'A') out += '^';
      else if (e === 'x') {
        out += src.slice(i, i + 4);
        i += 4;
        continue;
      } else if (/[pPQEC]/.test(e)) throw new Error(`unsupported escape \\${e} in ${src}`);
      else if (/[a-zA-Z]/.test(e) && !/[sSwWdDbBtnrfv]/.test(e))
        throw new Error(`unknown escape \\${e} in ${src}`);
      else out += `\\${e}`;
      i += 2;
      continue;
    }
    if (c === '[') {
      const [cls, next] = readClass(src, i, state().fold);
      out += cls;
      i = next;
      continue;
    }
    if (c === '(') {
      const flags = /^\(\?([a-zA-Z-]*)(:|\))/.exec(src.slice(i));
      if (flags) {
        const [whole, spec, end] = flags;
        const next = { ...state() };
        let on = true;
        for (const f of spec) {
          if (f === '-') on = false;
          else if (f === 'i') next.fold = on;
          else if (f === 's') next.dotAll = on;
          else throw new Error(`unsupported flag ${f} in ${src}`);
        }
        if (end === ')') Object.assign(state(), next);
        else {
          stack.push(next);
          out += '(?:';
        }
        i += whole.length;
        continue;
      }
      const named = /^\(\?P<([A-Za-z_]\w*)>/.exec(src.slice(i));
      if (named) {
        stack.push({ ...state() });
        out += `(?<${named[1]}>`;
        i += named[0].length;
        continue;
      }
      if (src.startsWith('(?<', i) || src.startsWith('(?=', i) || src.startsWith('(?!', i))
        throw new Error(`unsupported group in ${src}`);
      stack.push({ ...state() });
      out += src.startsWith('(?:', i) ? '(?:' : '(';
      i += src.startsWith('(?:', i) ? 3 : 1;
      continue;
    }
    if (c === ')') {
      stack.pop();
      out += ')';
      i++;
      continue;
    }
    if (c === '.') out += state().dotAll ? '[\\s\\S]' : '.';
    else if (/[a-zA-Z]/.test(c) && state().fold) out += `[${both(c)}]`;
    else if (c === '{' && !/^\{\d+(?:,\d*)?\}/.test(src.slice(i))) out += '\\{';
    else if (c === '}' && !/\{\d+(?:,\d*)?$/.test(src.slice(0, i))) out += '\\}';
    else if (c === '/') out += '\\/';
    else out += c;
    i++;
  }
  return out;
}

/** One character class from `src[i]`, folded when `fold`; returns [class, next index]. */
function readClass(src, i, fold) {
  let j = i + 1;
  let out = '[';
  if (src[j] === '^') {
    out += '^';
    j++;
  }
  let first = true;
  while (j < src.length && (src[j] !== ']' || first)) {
    first = false;
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(src.slice(j));
    if (posix) {
      if (posix[1] || !POSIX[posix[2]]) throw new Error(`unsupported class ${posix[0]} in ${src}`);
      out += POSIX[posix[2]];
      j += posix[0].length;
      continue;
    }
    let atom;
    if (src[j] === '\\') {
      atom = src[j + 1] === 'x' ? src.slice(j, j + 4) : src.slice(j, j + 2);
    } else atom = src[j];
    j += atom.length;
    // A range a-z: folded, both cases of a letter range are added.
    if (src[j] === '-' && src[j + 1] !== ']' && j + 1 < src.length) {
      let end = src[j + 1] === '\\' ? src.slice(j + 1, j + 3) : src[j + 1];
      if (end === '\\x') end = src.slice(j + 1, j + 5);
      j += 1 + end.length;
      out += `${atom}-${end}`;
      if (fold && /^[a-z]$/.test(atom) && /^[a-z]$/.test(end))
        out += `${atom.toUpperCase()}-${end.toUpperCase()}`;
      else if (fold && /^[A-Z]$/.test(atom) && /^[A-Z]$/.test(end))
        out += `${atom.toLowerCase()}-${end.toLowerCase()}`;
      continue;
    }
    if (atom.length === 1 && fold && /[a-zA-Z]/.test(atom)) out += both(atom);
    else if (atom === '[') out += '\\[';
    else if (atom === '/') out += '\\/';
    else out += atom;
  }
  return [`${out}]`, j + 1];
}

/**
 * Why a translated expression is not safe for a backtracking engine, or undefined when it is: no
 * group repeated more than once may hold a quantifier that repeats without bound (`(a+)+`, the
 * exponential case). What remains is polynomial, with bounded repeats in gitleaks' own rules, and
 * runs only on windows of at most a few kB (bench/redact.bench.ts prints the worst case it meets).
 */
export function unsafeReason(js) {
  // A stack of groups: does each contain an unbounded quantifier so far?
  const stack = [{ unbounded: false }];
  for (let i = 0; i < js.length; i++) {
    const c = js[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      for (i++; i < js.length && js[i] !== ']'; i++) if (js[i] === '\\') i++;
      continue;
    }
    if (c === '(') stack.push({ unbounded: false });
    else if (c === ')') {
      const group = stack.pop();
      const q = /^(?:[*+]|\{(\d+)(,(\d*))?\})/.exec(js.slice(i + 1));
      const repeats =
        q &&
        (q[0] === '*' ||
          q[0] === '+' ||
          (q[2] !== undefined && (q[3] === '' || Number(q[3]) > 1)) ||
          Number(q[1]) > 1);
      if (repeats && group.unbounded)
        return `a repeated group holds an unbounded repeat near ${js.slice(Math.max(0, i - 30), i + 5)}`;
      if (group.unbounded) stack[stack.length - 1].unbounded = true;
    } else if (c === '*' || c === '+' || (c === '{' && /^\{\d+,\}/.test(js.slice(i))))
      stack[stack.length - 1].unbounded = true;
  }
  return undefined;
}
