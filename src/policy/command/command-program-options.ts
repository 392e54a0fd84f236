import { hasLong, hasShort } from './command-gnu-options';
import { gitSubcommand } from './command-programs';

// Options through which a program runs another program, or shell code, that its own words name:
// `git grep -O'<cmd>'`, `rg --pre <cmd>`, `sort --compress-program=<cmd>`, `tar -I <cmd>`. What they
// run is text the guard does not judge, so such a command cannot be judged: it asks, and neither an
// allow rule nor an approve-all grant for the outer command (`git grep *`) covers it — a grant made
// for a harmless `git grep foo` covered `git grep -O'touch x' foo`, which ran `touch x` (red team).
// Long options match by any prefix the program accepts (command-gnu-options.ts): only stricter.

type Options = { long: string[]; short?: string; shortWithArg?: string };

const PROGRAMS: Record<string, Options> = {
  rg: { long: ['pre'] },
  sort: { long: ['compress-program'] },
  // tar's letters that take a value: what follows them in a cluster is that value, not an option.
  tar: {
    long: [
      'use-compress-program',
      'to-command',
      'checkpoint-action',
      'info-script',
      'new-volume-script',
      'rsh-command',
    ],
    short: 'IF',
    shortWithArg: 'bfCgHKLNTVX',
  },
  rsync: { long: ['rsh', 'rsync-path'], short: 'e' },
  zip: { long: ['unzip-command'] },
  man: { long: ['pager', 'html'], short: 'PH' },
  // A config file or `-o ProxyCommand=…` / `LocalCommand=…` runs a local command before connecting.
  ssh: { long: [], short: 'oF' },
  scp: { long: [], short: 'oFS' },
  sftp: { long: [], short: 'oFS' },
  // Red team: code given on the line, which may run shell commands (`make --eval`, gdb's `-ex 'shell …'`,
  // emacs `--eval`); gdb and emacs also spell these with one dash (`-ex`, `-eval`), read here as `-e`.
  make: { long: ['eval'], short: 'E', shortWithArg: 'CfIoWjl' },
  gdb: { long: ['eval-command', 'init-eval-command', 'ex', 'iex'], short: 'e' },
  emacs: { long: ['eval', 'execute'], short: 'e' },
};

/**
 * Programs that exist to run the command they are given, which the unwrapper does not
 * model: what they run is not judged, so they ask and no `*` rule covers them.
 */
const RUN_WRAPPERS: ReadonlySet<string> = new Set([
  'setpriv',
  'capsh',
  'setarch',
  'linux32',
  'linux64',
  'nsenter',
  'faketime',
  'tmux',
  'screen',
  'unshare',
  'firejail',
  'bwrap',
  'proot',
  'fakeroot',
  'expect',
  'dtach',
  'abduco',
]);
/** Package managers' options that run code or read a config that can (`--node-options=--require …`). */
const PACKAGE_MANAGERS = /^(npm|pnpm|yarn|npx|pnpx|bun|bunx)$/;
const PACKAGE_RUNNING = [
  'node-options',
  'script-shell',
  'userconfig',
  'globalconfig',
  'prefix',
  'shell',
  'call',
];
/** node's options that load code from the line or a file (`--import data:…`, `-r ./x`). */
const NODE_LOADING = ['import', 'require', 'loader', 'experimental-loader', 'eval', 'print', 'env-file'];

/** The wrappers and options above; undefined when none applies. */
function runsCode(argv: readonly string[], name: string): boolean {
  if (RUN_WRAPPERS.has(name)) return argv.length > 1;
  if (PACKAGE_MANAGERS.test(name))
    return argv.some((a) => PACKAGE_RUNNING.some((o) => a === `--${o}` || a.startsWith(`--${o}=`)));
  if (name === 'node' || name === 'nodejs' || name === 'deno')
    return (
      hasLong(argv, ...NODE_LOADING) || hasShort(argv, 'r') || hasShort(argv, 'e') || hasShort(argv, 'p')
    );
  if (name === 'make' || name === 'gmake') return argv.some((a) => /\$[({]shell\b|`/.test(a));
  if (/^python[0-9.]*$/.test(name))
    return argv.some((a, i) => a === '-m' && /^(timeit|pdb|trace|profile|cProfile)$/.test(argv[i + 1] ?? ''));
  if (/^(bash|sh|zsh|dash|ksh)$/.test(name)) return hasLong(argv, 'rcfile', 'init-file');
  if (name === 'sqlite3')
    return argv.some((a) => /(^|\s|;)\.(shell|system|load)\b/.test(a) || a === '-cmd' || a === '-init');
  if (name === 'zip') return argv.some((a) => /^-[A-Za-z]*TT/.test(a));
  return false;
}

/** vi and its kin run Ex commands from `-c`, `--cmd` and `+cmd`, and `:!cmd` runs a shell command. */
const VI = /^(vi|vim|nvim|ex|view|vimdiff|gvim|rvim|evim)$/;
const viRuns = (argv: readonly string[]): boolean =>
  hasLong(argv, 'cmd') || hasShort(argv, 'c') || argv.slice(1).some((a) => /^\+(?!\d*$)/.test(a));

/** git subcommands and their options that run a command given on the line. */
const GIT: Record<string, Options> = {
  grep: { long: ['open-files-in-pager'], short: 'O' },
  rebase: { long: ['exec'], short: 'x' },
  difftool: { long: ['extcmd'], short: 'x' },
  clone: { long: ['upload-pack', 'template'], short: 'u' },
  fetch: { long: ['upload-pack'] },
  pull: { long: ['upload-pack'] },
  'ls-remote': { long: ['upload-pack'] },
  push: { long: ['receive-pack', 'exec'] },
  archive: { long: ['exec'] },
};
/** git subcommands that exist to run a command they are given. */
const GIT_RUNS = new Set(['bisect', 'submodule', 'filter-branch']);
/** git's global options that can make any subcommand run a program (config, a helper folder). */
const GIT_GLOBAL = /^(-c|--config-env|--exec-path|--git-dir|--work-tree)/;
/**
 * `-c` settings that run nothing (names and colours, advice, line endings, defaults of pull, merge,
 * push and rebase, git clean's force check, the fsmonitor switched off): an agent's
 * `git -c user.name=… commit` stays judged. Any other key may name a program or shell code
 * (core.pager, alias.*, core.sshCommand, diff.external, filter.*, include.path …).
 */
const GIT_QUIET_CONFIG =
  /^(user\.[a-z]+|color\..+|advice\..+|core\.(quotepath|autocrlf|safecrlf|filemode|ignorecase)|init\.defaultbranch|(commit|tag)\.gpgsign|pull\.(rebase|ff)|merge\.ff|rebase\.(autosquash|autostash)|push\.default|fetch\.prune|log\.decorate|diff\.(noprefix|renames)|clean\.requireforce)(=|$)|^core\.fsmonitor=(false|no|off|0)$/i;

/** The first of git's global options that may run a program: `-c` with a key outside the quiet ones. */
function gitGlobalRunning(globals: readonly string[]): string | undefined {
  for (let i = 0; i < globals.length; i++) {
    const w = globals[i] as string;
    const m = GIT_GLOBAL.exec(w);
    if (!m) continue;
    if (m[1] !== '-c') return m[1];
    const setting = w === '-c' ? globals[i + 1] : w.slice(2);
    if (setting === undefined || !GIT_QUIET_CONFIG.test(setting)) return '-c';
    if (w === '-c') i++;
  }
  return undefined;
}

const uses = (argv: readonly string[], o: Options): boolean =>
  hasLong(argv, ...o.long) || [...(o.short ?? '')].some((l) => hasShort(argv, l, o.shortWithArg));

/**
 * Why this command line runs a program its own words name, or undefined. `argv[0]` is the program's
 * name as the judge resolved it. Contract: pure; errs on the side of "it may run one".
 */
export function runsNamedProgram(argv: readonly string[], name: string): string | undefined {
  const say = (what: string) =>
    `${what} runs a program named on the command line, which the guard does not judge.`;
  if (name === 'git') {
    const { sub, rest } = gitSubcommand(argv);
    const globals = argv.slice(1, sub === '' ? argv.length : argv.length - rest.length - 1);
    const global = gitGlobalRunning(globals);
    if (global) return say(`git ${global}`);
    if (sub === 'bisect' && rest[0] !== 'run') return undefined;
    if (sub === 'submodule' && rest[0] !== 'foreach') return undefined;
    if (GIT_RUNS.has(sub)) return say(`git ${sub}`);
    const options = GIT[sub];
    return options && uses([sub, ...rest], options) ? say(`git ${sub}`) : undefined;
  }
  if (VI.test(name)) return viRuns(argv) ? say(name) : undefined;
  if (runsCode(argv, name)) return say(name);
  const options = PROGRAMS[name];
  if (!options) return undefined;
  // tar's old style: `tar xIf zstd a.tar.zst` (letters without a dash, values after them).
  const oldStyle = name === 'tar' && argv[1] !== undefined && !argv[1].startsWith('-');
  if (oldStyle && /[IF]/.test(argv[1] as string)) return say('tar');
  return uses(argv, options) ? say(name) : undefined;
}
