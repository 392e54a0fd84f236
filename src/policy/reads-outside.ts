/**
 * Which word of a read-only command reads a path outside the project (the card says so and manual
 * mode asks). Only words a program opens as files count: an awk or sed script, the
 * value of `cut -d /`, what `echo` prints, `$PWD` before any `cd`, and paths in the sandbox's private
 * /tmp are not reads outside.
 */
import { posix } from 'node:path';
import { readSed } from './command/command-sed';
import type { CommandVerdict } from './command/command-types';
import type { PathFence, PathVerdict } from './guards/path-guard';

const MARK = '\u0000';
const CD = /^(cd|pushd|popd)$/;
/** Private to each sandboxed run (a fresh tmpfs, a minimal /dev): nothing of the host is read there. */
const SANDBOX_SCRATCH = /^\/(tmp|dev)(\/|$)/;

/** Read-only programs whose operands are never files they open: a run-time value there reads nothing. */
const NO_FILES: ReadonlySet<string> = new Set([
  'test',
  '[',
  '[[',
  'read',
  'set',
  'unset',
  'shopt',
  'wait',
  'sleep',
  'printenv',
  'type',
  'which',
  'help',
  'man',
  'pgrep',
  'tput',
]);
/** Programs whose operands are only printed or computed: no operand of theirs is a path at all. */
const PRINTS: ReadonlySet<string> = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'expr',
  'seq',
  'basename',
  'dirname',
  'exit',
  'return',
  'factor',
  'numfmt',
  'tr',
]);
/** Options whose value is a delimiter, a field list or a key, never a file. */
const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  cut: new Set([
    '-d',
    '-f',
    '-c',
    '-b',
    '--delimiter',
    '--fields',
    '--characters',
    '--bytes',
    '--output-delimiter',
  ]),
  paste: new Set(['-d', '--delimiters']),
  column: new Set(['-s', '-o', '-c', '-n', '--separator', '--output-separator', '--output-width']),
  sort: new Set(['-t', '-k', '--field-separator', '--key']),
  join: new Set(['-t', '-1', '-2', '-j', '-o']),
  awk: new Set(['-F', '-v', '--field-separator', '--assign']),
};

/**
 * The first operand of any part (not the program, not an option; the value of `--opt=value`) or file
 * it reads through `<` that the fence places outside the project, from the command's cwd. A link
 * inside the project that leads out counts. What the words cannot place counts as outside: an operand
 * only known at run time (`cat "$OLDPWD/x"`) and a `cd` to the home or the previous folder (`cd; cat
 * .bash_history`), after which relative operands mean something else. Only called for sandboxed runs.
 */
export function wordOutside(
  verdict: CommandVerdict,
  cwd: PathVerdict | undefined,
  fence: PathFence,
): string | undefined {
  const base = cwd?.ok ? cwd.relative : '';
  const seen = new Set<string>();
  let moved = false;
  for (const part of verdict.parts) {
    const name = part.argv[0] ?? '';
    const moves = CD.test(name);
    const operands = moves
      ? part.argv.slice(1).filter((w) => !/^-[LPe@]+$|^--$/.test(w))
      : fileOperands(part.argv);
    if (moves && (name === 'popd' || operands.length === 0 || operands[0] === '-'))
      return part.argv.join(' ');
    for (const word of [...operands, ...(part.reads ?? [])]) {
      const value = atPwd(word, moved, base);
      if (value === '' || seen.has(value)) continue;
      if (value.includes(MARK)) {
        if (NO_FILES.has(name)) continue;
        return `${value.replaceAll(MARK, '')} (only known at run time)`;
      }
      seen.add(value);
      if (posix.isAbsolute(value) && SANDBOX_SCRATCH.test(posix.normalize(value))) continue;
      const path = posix.isAbsolute(value) || base === '' ? value : posix.join(base, value);
      if (!fence.check(path).ok) return value;
    }
    if (moves) moved = true;
  }
  return undefined;
}

/** The words of a part that may name files it opens: options, scripts and option values left out. */
function fileOperands(argv: readonly string[]): string[] {
  const name = posix.basename(argv[0] ?? '');
  if (PRINTS.has(name)) return [];
  if (name === 'sed' || name === 'gsed') return readSed(argv).files;
  const values = VALUE_OPTIONS[name === 'gawk' || name === 'mawk' ? 'awk' : name];
  const out: string[] = [];
  let scriptSkipped = !/^(awk|gawk|mawk|nawk)$/.test(name) || argv.some((a) => a.startsWith('-f'));
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] as string;
    if (values?.has(word)) {
      i++;
      continue;
    }
    if (word.startsWith('-')) {
      if (word.startsWith('--') && word.includes('=') && !values?.has(word.slice(0, word.indexOf('='))))
        out.push(word.slice(word.indexOf('=') + 1));
      continue;
    }
    // awk's first operand is its program, not a file.
    if (!scriptSkipped) {
      scriptSkipped = true;
      continue;
    }
    out.push(word);
  }
  return out;
}

/** `$PWD` before any `cd` of the line is the command's own folder. */
function atPwd(word: string, moved: boolean, base: string): string {
  if (moved) return word;
  const m = new RegExp(`^${MARK}\\$\\{?PWD\\}?${MARK}(/.*)?$`).exec(word);
  if (!m) return word;
  return posix.join(base === '' ? '.' : base, m[1] ?? '.');
}
