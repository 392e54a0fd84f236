import { readAwk } from './command-awk';
import { hasLong, hasShort } from './command-gnu-options';
import { firstOperand, isSystemProgram, programName } from './command-programs';
import { gitReadOnly } from './command-readonly-git';
import { readSed } from './command-sed';

/** Programs that only read, whatever their arguments (none of them can write a file or run one). */
const ALWAYS_READ_ONLY: ReadonlySet<string> = new Set([
  // They list, look up or print and cannot write a file or run a program.
  'help',
  'lsof',
  'pgrep',
  'tput',
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'pwd',
  'echo',
  'printf',
  'which',
  'whereis',
  'type',
  'stat',
  'du',
  'df',
  'grep',
  'egrep',
  'fgrep',
  'diff',
  'cmp',
  'comm',
  'cut',
  'tr',
  'nl',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'true',
  'false',
  'test',
  '[',
  '[[',
  'cd',
  'pushd',
  'popd',
  'uname',
  'whoami',
  'id',
  'groups',
  'printenv',
  'jq',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'shasum',
  'cksum',
  'b2sum',
  'od',
  'hexdump',
  'strings',
  'column',
  'fold',
  'paste',
  'join',
  'rev',
  'tac',
  'seq',
  'expand',
  'unexpand',
  'ps',
  'uptime',
  'free',
  'nproc',
  'arch',
  'locale',
  'tty',
  'sleep',
  ':',
  'zcat',
  'eza',
  'exa',
  'lsblk',
  'getconf',
  'unset',
  'wait',
  'read',
  'set',
  'shopt',
  'exit',
  'return',
  'trap',
  'compgen',
  'mapfile',
  'readarray',
  'numfmt',
  'expr',
  'base64',
  'base32',
  'basenc',
  'fmt',
  'pr',
  'tsort',
  'factor',
  'yes',
]);

type Check = (argv: readonly string[]) => boolean;

/**
 * Programs that read unless an option writes a file or runs a program. Long options match by any
 * prefix getopt accepts (`sort --o=x` is `--output=x`); short ones inside clusters (`sort -ro x`).
 */
const READ_ONLY_UNLESS: Record<string, Check> = {
  find: (argv) => !argv.some((a) => /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(a)),
  // --pre and --hostname-bin run programs; -z / --search-zip runs decompressors on every file.
  rg: (argv) =>
    !hasLong(argv, 'pre', 'pre-glob', 'hostname-bin', 'search-zip') && !hasShort(argv, 'z', 'ABCEefgjMmrTtd'),
  fd: (argv) =>
    !hasLong(argv, 'exec', 'exec-batch') &&
    !hasShort(argv, 'x', 'deEtScjo') &&
    !hasShort(argv, 'X', 'deEtScjo'),
  sort: (argv) => !hasLong(argv, 'output', 'compress-program') && !hasShort(argv, 'o', 'kotST'),
  // -o writes the listing to a file; -R writes 00Tree.html into every directory.
  tree: (argv) => !hasShort(argv, 'o', 'LPIH') && !hasShort(argv, 'R', 'LPIH') && !hasLong(argv, 'output'),
  date: (argv) => !hasLong(argv, 'set') && !hasShort(argv, 's', 'dfIrR'),
  bat: (argv) => !hasLong(argv, 'pager'),
  file: (argv) => !hasLong(argv, 'compile') && !hasShort(argv, 'C', 'fmFeP'),
  ag: (argv) => !hasLong(argv, 'pager'),
  sed: (argv) => {
    const sed = readSed(argv);
    return !sed.inPlace && sed.writes.length === 0 && !sed.executes && !sed.unreadable;
  },
  awk: (argv) => readAwk(argv).kind === 'reads',
  // A page name, a section or a search: -P / -H / -X / -T / -t / -p and friends start a pager, a
  // browser, groff or a preprocessor the line names.
  man: (argv) =>
    argv
      .slice(1)
      .every((a) => /^(-[kfwa]|--(apropos|whatis|where|all)|[A-Za-z0-9_.:+][A-Za-z0-9_.:+-]*)$/.test(a)),
  // -K / --kill closes the sockets it lists.
  ss: (argv) => !hasLong(argv, 'kill') && !hasShort(argv, 'K', 'AfFNs'),
};
READ_ONLY_UNLESS.fdfind = READ_ONLY_UNLESS.fd as Check;
for (const name of ['gawk', 'mawk', 'nawk', 'busybox-awk'])
  READ_ONLY_UNLESS[name] = READ_ONLY_UNLESS.awk as Check;
for (const name of ['gsed']) READ_ONLY_UNLESS[name] = READ_ONLY_UNLESS.sed as Check;

/** Programs that read when they have at most one operand (`uniq in out` and `xxd in out` write `out`). */
const READ_ONLY_ONE_OPERAND: ReadonlySet<string> = new Set(['uniq', 'xxd']);

const VERSION_FLAGS: ReadonlySet<string> = new Set(['--version', '-v', '-V', 'version', '-version']);
const TOOLCHAINS: ReadonlySet<string> = new Set([
  'node',
  'nodejs',
  'npm',
  'npx',
  'pnpm',
  'yarn',
  'bun',
  'deno',
  'python',
  'python3',
  'pip',
  'pip3',
  'ruby',
  'gem',
  'go',
  'cargo',
  'rustc',
  'rustup',
  'java',
  'javac',
  'tsc',
  'gcc',
  'g++',
  'clang',
  'make',
  'cmake',
  'docker',
  'git',
  'bash',
  'zsh',
  'perl',
  'php',
  'dotnet',
  'swift',
  'esbuild',
  'vitest',
  'biome',
  'rg',
]);

function packageToolReadOnly(name: string, argv: readonly string[]): boolean {
  const sub = firstOperand(argv);
  if (['npm', 'pnpm', 'yarn'].includes(name))
    return sub === 'ls' || sub === 'list' || sub === 'why' || sub === 'root';
  if (name === 'pip' || name === 'pip3') return sub === 'list' || sub === 'show' || sub === 'freeze';
  if (name === 'go') return sub === 'version' || sub === 'env' || sub === 'list';
  if (name === 'cargo') return sub === 'tree' || sub === 'metadata';
  return false;
}

/**
 * True when the program, with these words, only reads. Output redirections are judged by the caller.
 * A program named by a path outside the system directories (`./cat`, `bin/ls`) is whatever that
 * file is, never the system program.
 * Contract: pure; unknown programs are not read-only.
 */
export function isReadOnly(argv: readonly string[]): boolean {
  if (!isSystemProgram(argv[0])) return false;
  const name = programName(argv[0]);
  if (argv.length === 2 && VERSION_FLAGS.has(argv[1] as string) && TOOLCHAINS.has(name)) return true;
  if (ALWAYS_READ_ONLY.has(name)) return true;
  const unless = READ_ONLY_UNLESS[name];
  if (unless) return unless(argv);
  if (READ_ONLY_ONE_OPERAND.has(name)) return argv.slice(1).filter((a) => !a.startsWith('-')).length <= 1;
  if (name === 'git') return gitReadOnly(argv);
  if (name === 'hostname') return argv.slice(1).every((a) => a.startsWith('-'));
  if (name === 'command') return argv.some((a) => a === '-v' || a === '-V');
  // Bare wrappers with no command only print (`env`) or do nothing.
  if (['env', 'nohup', 'time', 'exec', 'builtin', 'nice'].includes(name)) return argv.length === 1;
  return packageToolReadOnly(name, argv);
}
