/**
 * `warden policy test [--json] [--root DIR] [--cwd DIR] [--mode MODE] "<command>"`: which rule
 * decides a command, the verdict, the risk and why — without running it (like `codex execpolicy
 * check`). Reads the same files a session would (your policy, the project's as far as it is
 * trusted, the config's mode and protected paths), judges with the same guard and probes the same
 * sandbox. Nothing runs, nothing is asked, nothing is written.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../config/load';
import { failClosedCommandGuard, loadCommandGuard } from '../policy/command/command-guard';
import type { CommandGuard } from '../policy/command/command-types';
import { DEFAULT_PROTECTED_PATHS, PathFence } from '../policy/guards/path-guard';
import { loadPolicyRulesSync } from '../policy/load-policy';
import { formatPolicyReport } from '../policy/policy-report';
import type { SandboxInfo } from '../policy/tool-profile';
import { MODES, type Mode } from '../protocol';
import { sanitizeText } from '../text/sanitize';
import { detectSandbox } from '../tools/exec/sandbox';
import { createCoreTools } from '../tools/index';
import { homeHiddenPaths, homePatternsInProject } from '../trust/home-in-project';
import { checkCommand, commandTool } from './policy-check';

export type PolicyCliIo = {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  home: string;
  env: Record<string, string | undefined>;
  cwd: string;
  /** The sandbox probe (tests pass a verdict). */
  sandbox?: () => Promise<SandboxInfo>;
};

const HELP = `warden policy test [options] "<command>"
  Tells which rule decides the command, the verdict (allow, ask, deny), the risk and why,
  without running it. Quote the command; several words are joined with spaces.
  --json        one JSON object
  --root DIR    the project (default: the current directory)
  --cwd DIR     where the command would run, relative to the project (default: its root)
  --mode MODE   ${MODES.join(' | ')} (default: as configured)
  Exit status: 0 with a verdict, 1 when a policy or config file is broken, 2 for bad usage.
`;

type Parsed = { json: boolean; root?: string; cwd?: string; mode?: Mode; words: string[] };

function parse(argv: readonly string[]): { ok: true; args: Parsed } | { ok: false; error: string } | 'help' {
  if (argv[0] === '-h' || argv[0] === '--help' || argv.length === 0)
    return argv.length ? 'help' : { ok: false, error: 'say what to do: warden policy test "<command>"' };
  if (argv[0] !== 'test')
    return {
      ok: false,
      error: `unknown subcommand ${JSON.stringify(argv[0])} (warden policy test "<command>")`,
    };
  const args: Parsed = { json: false, words: [] };
  const rest = argv.slice(1);
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--') {
      args.words.push(...rest.slice(i + 1));
      break;
    }
    if (args.words.length > 0 || !arg.startsWith('-')) {
      args.words.push(arg);
      continue;
    }
    if (arg === '-h' || arg === '--help') return 'help';
    if (arg === '--json') {
      args.json = true;
      continue;
    }
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (flag !== '--root' && flag !== '--cwd' && flag !== '--mode')
      return { ok: false, error: `unknown option ${arg}` };
    const value = inline ?? rest[++i];
    if (value === undefined || value === '') return { ok: false, error: `${flag} needs a value` };
    if (flag === '--mode') {
      const mode = MODES.find((m) => m === value);
      if (!mode)
        return { ok: false, error: `unknown mode ${JSON.stringify(value)}; use one of ${MODES.join(', ')}` };
      args.mode = mode;
    } else if (flag === '--root') args.root = value;
    else args.cwd = value;
  }
  if (args.words.join(' ').trim() === '')
    return { ok: false, error: 'no command to test: warden policy test "<command>"' };
  return { ok: true, args };
}

/** Runs `warden policy …`. Returns the exit code. Contract: never throws. */
export async function runPolicyCli(argv: readonly string[], io: PolicyCliIo): Promise<number> {
  const usage = (error: string) => {
    io.stderr.write(`warden policy: ${sanitizeText(error)}\nRun 'warden policy --help'.\n`);
    return 2;
  };
  const parsed = parse(argv);
  if (parsed === 'help') {
    io.stdout.write(HELP);
    return 0;
  }
  if (!parsed.ok) return usage(parsed.error);
  const { args } = parsed;
  const root = resolve(io.cwd, args.root ?? '.');
  if (!isDirectory(root)) return usage(`--root ${root} is not a folder`);
  try {
    const loaded = loadConfig({
      home: io.home,
      root,
      env: io.env,
      ...(args.mode ? { flags: { mode: args.mode } } : {}),
    });
    if (!loaded.ok) return loaded.usage ? usage(loaded.error) : fail(io, loaded.error);
    const config = loaded.config;
    const trusted = loaded.project?.trusted === true;
    const { managed } = loaded;
    const rules = loadPolicyRulesSync(io.home, root, {
      ...(loaded.project ? { project: loaded.project.snapshot } : {}),
      trusted,
      managed: { dir: managed.dir, rulesOnly: managed.rulesOnly },
    });
    if (!rules.ok) return fail(io, rules.error);
    const fence = new PathFence(
      root,
      [...DEFAULT_PROTECTED_PATHS, ...config.protectedPaths, ...homePatternsInProject(io.home, root)],
      { hidden: homeHiddenPaths(io.home, root), managed: [managed.dir] },
    );
    const tool = commandTool(createCoreTools(io.home, config.sandboxReadPaths));
    if (!tool) return fail(io, 'no tool runs commands');
    const [commands, sandbox] = await Promise.all([
      loadCommandGuard().catch(
        (err: Error): CommandGuard =>
          failClosedCommandGuard(`the command parser did not load (${err.message})`),
      ),
      config.sandbox === 'off'
        ? Promise.resolve<SandboxInfo>({ kind: 'none', reason: 'sandbox is off in the config' })
        : (io.sandbox ?? (() => detectSandbox()))(),
    ]);
    const check = checkCommand(
      tool,
      { command: args.words.join(' '), ...(args.cwd !== undefined ? { cwd: args.cwd } : {}) },
      {
        deps: { fence, commands, sandbox },
        policy: { rules: rules.rules, mode: config.mode },
        held: rules.held.length,
        ignored: rules.ignored.length,
      },
    );
    if (!check.ok) return usage(check.error);
    io.stdout.write(
      args.json ? `${JSON.stringify(check.report)}\n` : `${formatPolicyReport(check.report)}\n`,
    );
    return 0;
  } catch (err) {
    return fail(io, (err as Error).message);
  }
}

function fail(io: PolicyCliIo, error: string): number {
  io.stderr.write(`warden policy: ${sanitizeText(error)}\n`);
  return 1;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
