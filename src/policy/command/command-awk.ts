// Reading an awk command line: `awk '{print $1}' f` only reads; `system(…)`, pipes to and from
// commands, `print > file` and gawk's `@load` / `@include` do more, and options such as
// `--profile` or `-l` write files or load code.

/** What an awk invocation does beyond printing. */
export type AwkFacts =
  | { kind: 'reads' }
  | { kind: 'script-file' }
  | { kind: 'writes' }
  | { kind: 'runs'; reason: string };

const PROGRAM_OPTIONS = /^(-F.*|-v.*|--field-separator(=.*)?|--assign(=.*)?|--)$/;

/**
 * Reads `awk [-F fs] [-v a=b] 'program' [files]`.
 * Contract: pure; never throws; anything not plainly reading is not `reads`.
 */
export function readAwk(argv: readonly string[]): AwkFacts {
  let program: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '-f' || a.startsWith('-f') || a.startsWith('--file') || a === '-E' || a.startsWith('--exec'))
      return { kind: 'script-file' };
    if (a === '--') {
      program = argv[i + 1];
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      program = a;
      break;
    }
    if (!PROGRAM_OPTIONS.test(a)) return { kind: 'runs', reason: `awk ${a} may load code or write files.` };
    if (a === '-F' || a === '-v' || a === '--field-separator' || a === '--assign') i++;
  }
  if (program === undefined) return { kind: 'reads' };
  return readProgram(program);
}

function readProgram(program: string): AwkFacts {
  const code = stripStrings(program);
  if (/\bsystem\s*\(/.test(code))
    return { kind: 'runs', reason: 'awk calls system(), running a shell command the guard cannot read.' };
  if (/\|/.test(code.replaceAll('||', '')))
    return { kind: 'runs', reason: 'awk pipes to or from a command the guard cannot read.' };
  if (code.includes('@'))
    return { kind: 'runs', reason: 'awk loads code with @load / @include or calls a function indirectly.' };
  if (/\b(printf?)\b/.test(code) && code.includes('>')) return { kind: 'writes' };
  return { kind: 'reads' };
}

/** Replaces string literals, regex literals and comments with blanks so their text is not read as code. */
function stripStrings(program: string): string {
  let out = '';
  for (let i = 0; i < program.length; i++) {
    const c = program[i] as string;
    const close = c === '"' ? '"' : c === '/' && REGEX_BEFORE.test(out.trimEnd().slice(-1)) ? '/' : undefined;
    if (close) {
      for (i++; i < program.length && program[i] !== close; i++) if (program[i] === '\\') i++;
      out += `${close}${close}`;
    } else if (c === '#') {
      while (i < program.length && program[i] !== '\n') i++;
      out += '\n';
    } else out += c;
  }
  return out;
}

/** A `/` after one of these (or at the start) opens a regex literal, not a division. */
const REGEX_BEFORE = /^$|[(,~!{};&|\n]/;
