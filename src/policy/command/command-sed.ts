// Reading a sed command line: which files it edits in place, which files its script writes
// (`w file`, `s/x/y/w file`), and whether the script runs commands (GNU `e`, `s///e`).

/** What a sed invocation does beyond printing. */
export type SedFacts = {
  /** `-i` / `--in-place`: the input files are rewritten. */
  inPlace: boolean;
  /** Input files (rewritten when `inPlace`). */
  files: string[];
  /** Files the script writes with `w` / `W` / the `w` flag of `s`. */
  writes: string[];
  /** Files the script reads with `r` / `R`: reads no operand shows. */
  reads: string[];
  /** The script runs shell commands (`e`, `s///e`). */
  executes: boolean;
  /** Part of the script cannot be read (`-f file`, a word the guard cannot parse): assume the worst. */
  unreadable: boolean;
};

const SIMPLE = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F', '}']);
const SAFE_OUT = /^\/dev\/(stdout|stderr|null)$/;

/**
 * Reads `sed [options] [script] [files]` the way GNU sed does.
 * Contract: pure; never throws; `unreadable` when anything does not parse.
 */
export function readSed(argv: readonly string[]): SedFacts {
  const facts: SedFacts = {
    inPlace: false,
    files: [],
    writes: [],
    reads: [],
    executes: false,
    unreadable: false,
  };
  const scripts: string[] = [];
  let sandbox = false;
  let ended = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (ended || a === '-' || !a.startsWith('-')) {
      facts.files.push(a);
      continue;
    }
    if (a === '--') ended = true;
    else if (a.startsWith('--')) {
      const [name = '', value] = a.slice(2).split('=', 2);
      if (name.length >= 3 && 'in-place'.startsWith(name)) facts.inPlace = true;
      else if (name.length >= 2 && 'expression'.startsWith(name))
        scripts.push(value ?? (argv[++i] as string) ?? '');
      else if (name.length >= 2 && 'file'.startsWith(name)) {
        if (value === undefined) i++;
        facts.unreadable = true;
      } else if (name.length >= 2 && 'sandbox'.startsWith(name)) sandbox = true;
      else if (name.length >= 2 && 'line-length'.startsWith(name) && value === undefined) i++;
    } else {
      for (let k = 1; k < a.length; k++) {
        const l = a[k] as string;
        const rest = a.slice(k + 1);
        if (l === 'i') facts.inPlace = true;
        else if (l === 'e') scripts.push(rest || ((argv[++i] as string | undefined) ?? ''));
        else if (l === 'f' || l === 'l') {
          if (rest === '') i++;
          if (l === 'f') facts.unreadable = true;
        } else if (!'nErsuzb'.includes(l)) facts.unreadable = true;
        if ('ielf'.includes(l)) break;
      }
    }
  }
  if (scripts.length === 0) scripts.push(facts.files.shift() ?? '');
  for (const script of scripts) readScript(script, facts);
  if (sandbox) {
    // --sandbox makes sed refuse `e`, `w` and `r` before running anything.
    facts.writes = [];
    facts.reads = [];
    facts.executes = false;
  }
  return facts;
}

function readScript(s: string, facts: SedFacts): void {
  let i = 0;
  const toLineEnd = (): string => {
    const end = s.indexOf('\n', i);
    const text = s.slice(i, end < 0 ? s.length : end);
    i = end < 0 ? s.length : end;
    return text.trim();
  };
  /** Reads `count` parts closed by the delimiter at `i` (`/re/`, `/re/rep/`); false if one is not closed. */
  const delimited = (count = 1): boolean => {
    const d = s[i++];
    if (d === undefined || d === '\\' || d === '\n') return false;
    for (let n = 0; n < count; n++) {
      while (i < s.length && s[i] !== d) i += s[i] === '\\' ? 2 : 1;
      if (i++ >= s.length) return false;
    }
    return true;
  };
  const write = (file: string): void => {
    if (!SAFE_OUT.test(file)) facts.writes.push(file);
  };
  while (i < s.length) {
    while (i < s.length && /[\s;]/.test(s[i] as string)) i++;
    if (i >= s.length) return;
    if (!skipAddresses()) return unreadable();
    const c = s[i++] as string;
    if (SIMPLE.has(c) || c === '{') continue;
    if (c === 'r' || c === 'R') {
      const file = toLineEnd();
      if (file !== '' && file !== '/dev/stdin') facts.reads.push(file);
    } else if (c === '#' || c === 'a' || c === 'i' || c === 'c') toLineEnd();
    else if (c === ':' || c === 'b' || c === 't' || c === 'T' || c === 'v')
      while (i < s.length && !/[;\n]/.test(s[i] as string)) i++;
    else if (c === 'q' || c === 'Q' || c === 'l' || c === 'L') while (/[\d ]/.test(s[i] ?? '')) i++;
    else if (c === 'w' || c === 'W') write(toLineEnd());
    else if (c === 'e') {
      facts.executes = true;
      toLineEnd();
    } else if (c === 'y') {
      if (!delimited(2)) return unreadable();
    } else if (c === 's') {
      if (!delimited(2)) return unreadable();
      while (i < s.length && /[gpiImMe0-9w]/.test(s[i] as string)) {
        const f = s[i++] as string;
        if (f === 'e') facts.executes = true;
        if (f === 'w') {
          write(toLineEnd());
          break;
        }
      }
    } else return unreadable();
  }

  function unreadable(): void {
    facts.unreadable = true;
  }

  function skipAddresses(): boolean {
    for (let n = 0; n < 2; n++) {
      if (/\d/.test(s[i] ?? '')) while (/[\d~]/.test(s[i] ?? '')) i++;
      else if (s[i] === '$') i++;
      else if (s[i] === '/' || s[i] === '\\') {
        if (s[i] === '\\') i++;
        if (!delimited()) return false;
        while (/[IM]/.test(s[i] ?? '')) i++;
      } else if (n === 1 && /[+~]/.test(s[i] ?? '')) while (/[\d+~]/.test(s[i] ?? '')) i++;
      while (s[i] === ' ') i++;
      if (n === 0 && s[i] === ',') {
        i++;
        while (s[i] === ' ') i++;
        continue;
      }
      break;
    }
    while (s[i] === ' ' || s[i] === '!') i++;
    return i < s.length;
  }
}
