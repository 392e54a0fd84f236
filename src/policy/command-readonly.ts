import { firstOperand, gitSubcommand, programName } from './command-programs';

/** Programs that only read, whatever their arguments (none of them can write a file or run one). */
const ALWAYS_READ_ONLY: ReadonlySet<string> = new Set([
  'ls', 'cat', 'head', 'tail', 'wc', 'pwd', 'echo', 'printf', 'which', 'whereis', 'type', 'file', 'stat',
  'du', 'df', 'grep', 'egrep', 'fgrep', 'ag', 'ack', 'diff', 'cmp', 'comm', 'cut', 'tr', 'nl', 'basename',
  'dirname', 'realpath', 'readlink', 'true', 'false', 'test', '[', '[[', 'cd', 'pushd', 'popd', 'uname',
  'whoami', 'id', 'groups', 'printenv', 'jq', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'shasum',
  'cksum', 'b2sum', 'od', 'hexdump', 'strings', 'column', 'fold', 'paste', 'join', 'rev', 'tac', 'seq',
  'expand', 'unexpand', 'ps', 'uptime', 'free', 'nproc', 'arch', 'locale', 'tty', 'sleep', ':', 'zcat',
  'eza', 'exa', 'lsblk', 'getconf', 'unset', 'wait', 'read', 'set', 'shopt', 'exit', 'return',
]);

/** Programs that read unless given an option that writes or runs something. */
const READ_ONLY_UNLESS: Record<string, RegExp> = {
  find: /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/,
  rg: /^--(pre|pre-glob)(=|$)/,
  fd: /^(-x|-X|--exec|--exec-batch)(=|$)/,
  sort: /^-[bdfghiMmnRrsuVzcC]*o|^--output/,
  tree: /^-o$/,
  date: /^(-s|--set)(=|$)/,
  bat: /^--(pager)(=|$)/,
};

/** Programs that read when they have at most one operand (`uniq in out` and `xxd in out` write `out`). */
const READ_ONLY_ONE_OPERAND: ReadonlySet<string> = new Set(['uniq', 'xxd']);

const VERSION_FLAGS: ReadonlySet<string> = new Set(['--version', '-v', '-V', 'version', '-version']);
const TOOLCHAINS: ReadonlySet<string> = new Set([
  'node', 'nodejs', 'npm', 'npx', 'pnpm', 'yarn', 'bun', 'deno', 'python', 'python3', 'pip', 'pip3', 'ruby',
  'gem', 'go', 'cargo', 'rustc', 'rustup', 'java', 'javac', 'tsc', 'gcc', 'g++', 'clang', 'make', 'cmake',
  'docker', 'git', 'bash', 'zsh', 'perl', 'php', 'dotnet', 'swift', 'esbuild', 'vitest', 'biome', 'rg',
]);

const GIT_READ_ONLY = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'blame', 'describe', 'shortlog', 'ls-tree',
  'cat-file', 'grep', 'merge-base', 'name-rev', 'count-objects', 'version', 'whatchanged', 'show-ref',
  'for-each-ref', 'rev-list', 'check-ignore', 'check-attr', 'annotate', 'show-branch', 'var',
]);
const GIT_BRANCH_LISTING = new Set(['-a', '-r', '-v', '-vv', '--all', '--remotes', '--verbose', '--list', '-l', '--show-current', '--no-color']);

function gitReadOnly(argv: readonly string[]): boolean {
  const { sub, rest, plain } = gitSubcommand(argv);
  if (!plain) return false;
  // `--output` writes a file; `--ext-diff` runs what the repository configures; `grep -O` opens a pager.
  if (rest.some((a) => /^(--(output|ext-diff|open-files-in-pager)(=|$)|-O)/.test(a))) return false;
  if (GIT_READ_ONLY.has(sub)) return true;
  if (sub === 'branch') return rest.every((a) => GIT_BRANCH_LISTING.has(a));
  if (sub === 'tag') return rest.length === 0 || rest[0] === '-l' || rest[0] === '--list';
  if (sub === 'remote') return rest.length === 0 || (rest.length === 1 && rest[0] === '-v') || rest[0] === 'get-url';
  if (sub === 'stash' || sub === 'worktree') return rest[0] === 'list';
  if (sub === 'reflog') return rest.length === 0 || rest[0] === 'show';
  if (sub === 'config') return rest.length > 0 && /^(--get|--get-all|--get-regexp|--list|-l)$/.test(rest[0] as string);
  return false;
}

function packageToolReadOnly(name: string, argv: readonly string[]): boolean {
  const sub = firstOperand(argv);
  if (['npm', 'pnpm', 'yarn'].includes(name)) return sub === 'ls' || sub === 'list' || sub === 'why' || sub === 'root';
  if (name === 'pip' || name === 'pip3') return sub === 'list' || sub === 'show' || sub === 'freeze';
  if (name === 'go') return sub === 'version' || sub === 'env' || sub === 'list';
  if (name === 'cargo') return sub === 'tree' || sub === 'metadata';
  return false;
}

/**
 * True when the program, with these words, only reads. Output redirections are judged by the caller.
 * Contract: pure; unknown programs are not read-only.
 */
export function isReadOnly(argv: readonly string[]): boolean {
  const name = programName(argv[0]);
  if (argv.length === 2 && VERSION_FLAGS.has(argv[1] as string) && TOOLCHAINS.has(name)) return true;
  if (ALWAYS_READ_ONLY.has(name)) return true;
  const unless = READ_ONLY_UNLESS[name];
  if (unless) return !argv.slice(1).some((a) => unless.test(a));
  if (READ_ONLY_ONE_OPERAND.has(name)) return argv.slice(1).filter((a) => !a.startsWith('-')).length <= 1;
  if (name === 'git') return gitReadOnly(argv);
  if (name === 'hostname') return argv.slice(1).every((a) => a.startsWith('-'));
  if (name === 'command') return argv.some((a) => a === '-v' || a === '-V');
  // Bare wrappers with no command only print (`env`) or do nothing.
  if (['env', 'nohup', 'time', 'exec', 'builtin', 'nice'].includes(name)) return argv.length === 1;
  return packageToolReadOnly(name, argv);
}
