import type { Arg } from './command-raw';
import { programName } from './command-programs';
import { markDynamic } from './command-words';

/** How a wrapper reads its own options before the command it runs. */
type WrapperSpec = {
  /** Short options that take a value (attached `-n5` or next word `-n 5`). */
  withArg?: string;
  longWithArg?: readonly string[];
  /** `env`: skip `NAME=value` words. */
  assignments?: boolean;
  /** Positional words before the command: `timeout`'s duration. */
  positional?: number;
  /** Options that mean "no command follows" (`command -v x` only looks `x` up). */
  query?: string;
  /** Options whose value is a whole shell command line (`env -S '…'`). */
  script?: { short?: string; long?: readonly string[] };
  /** The rest of the words are one shell command line (`watch 'ls | wc'`). */
  joinsScript?: boolean;
  /** The words after its options are files, not a command (`script -c '…' log`). */
  files?: boolean;
};

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    withArg: 'ugpChDrtTUR',
    longWithArg: [
      'user',
      'group',
      'prompt',
      'close-from',
      'chdir',
      'role',
      'type',
      'command-timeout',
      'other-user',
      'host',
      'chroot',
    ],
    query: 'lVv',
  },
  doas: { withArg: 'uC' },
  pkexec: { longWithArg: ['user'] },
  run0: {
    withArg: 'uDg',
    longWithArg: ['user', 'group', 'chdir', 'unit', 'property', 'description', 'slice', 'nice', 'setenv'],
  },
  env: {
    withArg: 'uC',
    longWithArg: ['unset', 'chdir'],
    assignments: true,
    script: { short: 'S', long: ['split-string'] },
  },
  nohup: {},
  builtin: {},
  busybox: {},
  toybox: {},
  setsid: {},
  unbuffer: {},
  exec: { withArg: 'a' },
  command: { query: 'vV' },
  time: { withArg: 'fo', longWithArg: ['format', 'output'] },
  timeout: { withArg: 'sk', longWithArg: ['signal', 'kill-after'], positional: 1 },
  nice: { withArg: 'n', longWithArg: ['adjustment'] },
  ionice: { withArg: 'cnp', longWithArg: ['class', 'classdata', 'pid', 'pgid', 'uid'], query: 'pPu' },
  stdbuf: { withArg: 'ioe', longWithArg: ['input', 'output', 'error'] },
  caffeinate: { withArg: 'tw' },
  xargs: {
    withArg: 'adEILnPs',
    longWithArg: [
      'arg-file',
      'delimiter',
      'eof',
      'replace',
      'max-lines',
      'max-args',
      'max-procs',
      'max-chars',
      'process-slot-var',
    ],
  },
  watch: { withArg: 'nq', longWithArg: ['interval', 'equexit'], joinsScript: true },
  chroot: { longWithArg: ['userspec', 'groups'], positional: 1 },
  strace: { withArg: 'eoOpPsSuEbIXU', query: 'p' },
  ltrace: { withArg: 'eoaAnpsuDEIlLNxX', query: 'p' },
  fakeroot: { withArg: 'ilsb', longWithArg: ['lib', 'faked'] },
  unshare: {
    withArg: 'SGRw',
    longWithArg: ['setuid', 'setgid', 'root', 'wd', 'propagation', 'map-user', 'map-group'],
  },
  firejail: {},
  // Red team: `flock l rm -rf ~`, `flock -c 'rm -rf ~' l` and `script -c '…'` were judged as flock and
  // script alone, so no rule saw the command they run; likewise the schedulers and debuggers below.
  flock: {
    withArg: 'wE',
    longWithArg: ['timeout', 'wait', 'conflict-exit-code'],
    positional: 1,
    script: { short: 'c', long: ['command'] },
  },
  script: {
    withArg: 'EIOBTmo',
    longWithArg: ['echo', 'log-in', 'log-out', 'log-io', 'log-timing', 'logging-format', 'output-limit'],
    script: { short: 'c', long: ['command'] },
    files: true,
  },
  chrt: {
    withArg: 'TPD',
    longWithArg: ['sched-runtime', 'sched-period', 'sched-deadline'],
    query: 'pm',
    positional: 1,
  },
  taskset: { query: 'p', positional: 1 },
  prlimit: { withArg: 'o', longWithArg: ['output', 'pid'], query: 'p' },
  valgrind: {},
  catchsegv: {},
  'xvfb-run': {
    withArg: 'nspfe',
    longWithArg: ['server-num', 'server-args', 'xauth-protocol', 'auth-file', 'error-file'],
  },
  'dbus-run-session': { longWithArg: ['config-file', 'dbus-daemon'] },
  // `npx rimraf /` runs rimraf; `npx -c '…'` runs a shell command line.
  npx: { withArg: 'p', longWithArg: ['package'], script: { short: 'c', long: ['call'] } },
  uvx: { withArg: 'p', longWithArg: ['from', 'with', 'python', 'index'] },
  'nix-shell': {
    withArg: 'pAIE',
    longWithArg: ['packages', 'attr', 'arg', 'argstr', 'include', 'option'],
    script: { long: ['run', 'command'] },
    files: true,
  },
  bunx: {},
  pnpx: { withArg: 'p', longWithArg: ['package'], script: { short: 'c' } },
  proxychains: { withArg: 'f' },
  proxychains4: { withArg: 'f' },
  torsocks: { withArg: 'uapP' },
  'systemd-run': {
    withArg: 'pEHMu',
    longWithArg: [
      'unit',
      'property',
      'description',
      'slice',
      'uid',
      'gid',
      'nice',
      'working-directory',
      'setenv',
      'machine',
      'host',
    ],
  },
};

/**
 * Package and environment managers whose subcommand runs the command after it: `npm exec -- rm -rf ~`,
 * `uv run rm …`, `poetry run …` (red team: judged as the manager alone, so no rule saw the command).
 * The manager's own options may come first (`npm --yes exec …`, `npm --prefix x exec …`): the
 * subcommand is the first word that is neither an option nor right after one.
 */
const SUBCOMMAND_WRAPPERS: Record<string, Record<string, WrapperSpec>> = {
  npm: {
    exec: { withArg: 'pw', longWithArg: ['package', 'workspace'], script: { short: 'c', long: ['call'] } },
    x: { withArg: 'pw', longWithArg: ['package', 'workspace'], script: { short: 'c', long: ['call'] } },
  },
  pnpm: { exec: { withArg: 'C', longWithArg: ['dir', 'filter'] }, dlx: { longWithArg: ['package'] } },
  yarn: { exec: {}, dlx: { withArg: 'p', longWithArg: ['package'] } },
  bun: { x: {}, exec: { joinsScript: true } },
  uv: {
    run: {
      withArg: 'p',
      longWithArg: [
        'with',
        'python',
        'package',
        'directory',
        'project',
        'env-file',
        'extra',
        'group',
        'index',
      ],
    },
    tool: {},
  },
  poetry: { run: {} },
  pipx: { run: { longWithArg: ['spec', 'python', 'pip-args'] } },
  pipenv: { run: {} },
  conda: { run: { withArg: 'np', longWithArg: ['name', 'prefix'] } },
  mamba: { run: { withArg: 'np', longWithArg: ['name', 'prefix'] } },
  pdm: { run: {} },
  hatch: { run: {} },
  rye: { run: {} },
  direnv: { exec: { positional: 1 } },
};

/** Stands for the words `xargs` reads from its input: unknown until run time. */
export const XARGS_INPUT = markDynamic('<xargs input>');

/** More wrappers than this around one command: the guard gives up and asks. */
export const MAX_WRAPPERS = 8;

/** The layers of one command: `timeout 5 sudo rm x` is [[timeout…], [sudo…], [rm x]]. */
export type Unwrapped = {
  /** Argument lists, outermost first; the last one is the program that really runs. */
  layers: Arg[][];
  /** Shell command lines a wrapper runs (`env -S`, `watch`), to parse and judge again. */
  scripts: Array<{ via: string; code: Arg }>;
  problem?: string;
};

/**
 * Peels wrappers (`sudo`, `env`, `timeout`, `nice`, `xargs`, `command`, `exec`, …) off a command.
 * Contract: pure; never throws; stops at MAX_WRAPPERS with a problem.
 */
export function unwrap(args: Arg[]): Unwrapped {
  const layers: Arg[][] = [args];
  const scripts: Unwrapped['scripts'] = [];
  let current = args;
  for (;;) {
    const name = programName(current[0]?.value);
    // `npm exec cmd` is read as a wrapper `npm` whose words start after its subcommand.
    const subs = SUBCOMMAND_WRAPPERS[name];
    const at = subs ? subcommandAt(current, subs) : undefined;
    const bySub = at === undefined ? undefined : subs?.[(current[at] as Arg).value];
    if (at !== undefined) current = [current[0] as Arg, ...current.slice(at + 1)];
    const spec = bySub ?? WRAPPERS[name];
    if (!spec) return { layers, scripts };
    if (layers.length > MAX_WRAPPERS) {
      return {
        layers,
        scripts,
        problem: `More than ${MAX_WRAPPERS} wrapper commands are nested; too deep to judge.`,
      };
    }
    const inner = peel(name, current, spec, scripts);
    if (!inner || inner.length === 0) return { layers, scripts };
    current = inner;
    layers.push(current);
  }
}

/** Where a manager's wrapping subcommand is: past its own options (and what may be their values). */
function subcommandAt(args: readonly Arg[], subs: Record<string, WrapperSpec>): number | undefined {
  for (let i = 1; i < args.length; i++) {
    const word = (args[i] as Arg).value;
    if (Object.hasOwn(subs, word)) return i;
    const afterOption = /^-[^=]*$/.test((args[i - 1] as Arg).value) && i > 1;
    if (!word.startsWith('-') && !afterOption) return undefined;
  }
  return undefined;
}

function peel(
  name: string,
  args: Arg[],
  spec: WrapperSpec,
  scripts: Unwrapped['scripts'],
): Arg[] | undefined {
  let positional = spec.positional ?? 0;
  let i = 1;
  for (; i < args.length; i++) {
    const a = (args[i] as Arg).value;
    if (a === '--') {
      i++;
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const [long = '', value] = a.slice(2).split('=', 2);
      if (spec.script?.long?.includes(long))
        return pushScript(scripts, name, value === undefined ? args[i + 1] : { ...(args[i] as Arg), value });
      if (spec.longWithArg?.includes(long) && value === undefined) i++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      const letters = a.slice(1);
      if (spec.query && [...letters].some((l) => spec.query?.includes(l))) return undefined;
      const scriptAt = spec.script?.short ? letters.indexOf(spec.script.short) : -1;
      if (scriptAt >= 0) {
        const attached = letters.slice(scriptAt + 1);
        return pushScript(scripts, name, attached ? { ...(args[i] as Arg), value: attached } : args[i + 1]);
      }
      const withArgAt = [...letters].findIndex((l) => spec.withArg?.includes(l));
      if (withArgAt >= 0 && withArgAt === letters.length - 1) i++;
      continue;
    }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) continue;
    if (positional > 0) {
      positional--;
      continue;
    }
    break;
  }
  const rest = args.slice(i);
  if (spec.files) return undefined;
  if (spec.joinsScript) {
    if (rest.length > 0) pushScript(scripts, name, joinArgs(rest));
    return undefined;
  }
  if (name === 'xargs') {
    const command = rest.length > 0 ? rest : [{ value: 'echo', subs: [] }];
    // `xargs -I{} cmd {}`: every word holding the replace string becomes input from the pipe.
    const replace = xargsReplace(args.slice(1, i).map((a) => a.value));
    if (replace !== undefined)
      return command.map((a) => (a.value.includes(replace) ? { ...a, value: XARGS_INPUT } : a));
    return [...command, { value: XARGS_INPUT, subs: [] }];
  }
  return rest;
}

function pushScript(scripts: Unwrapped['scripts'], via: string, code: Arg | undefined): undefined {
  if (code) scripts.push({ via, code });
  return undefined;
}

function joinArgs(args: readonly Arg[]): Arg {
  return { value: args.map((a) => a.value).join(' '), subs: args.flatMap((a) => a.subs) };
}

/** The replace string of `xargs -I R` / `-iR` / `--replace[=R]`, if any. */
function xargsReplace(options: readonly string[]): string | undefined {
  for (let i = 0; i < options.length; i++) {
    const o = options[i] as string;
    if (o === '-I') return options[i + 1];
    if (o.startsWith('-I')) return o.slice(2);
    if (o === '-i' || o === '--replace') return '{}';
    if (o.startsWith('-i')) return o.slice(2);
    if (o.startsWith('--replace=')) return o.slice('--replace='.length);
  }
  return undefined;
}
