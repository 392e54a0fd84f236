import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../../lazy-zod';
import { formatSecondsTenths } from '../../text/duration';
import { scrubEnv } from './env-scrub';
import { GIT_RUN_ENV } from './git-run-env';
import { shownPath } from '../fs/fs-common';
import { type GroupRunRequest, type GroupRunResult, runInProcessGroup } from './process-group';
import { bwrapArgs, findSecretMasks, type SandboxMask } from './sandbox';
import { describeHits, protectedHits } from './sandbox-denials';
import { type MountClaim, MountPointLedger } from './sandbox-mount-points';
import { type NewGit, quarantineNewGit } from './sandbox-new-git';
import { PROTECT_SCAN_LIMIT, type ProtectPlan, planProtection } from './sandbox-protect';
import { findSocketMasks } from './sandbox-sockets';
import { defineTool, fencedPath, type SandboxInfo, type ToolContext } from '../types';

export const COMMAND_DEFAULT_TIMEOUT_MS = 60_000;
export const COMMAND_MAX_TIMEOUT_MS = 600_000;
/** Output the model sees: head and tail, this many bytes in total. */
export const COMMAND_MAX_OUTPUT_BYTES = 8 * 1024;

/** The operations execute_command uses; tests swap them or shorten the kill grace. */
export type ExecuteCommandEffects = {
  run(request: GroupRunRequest): Promise<GroupRunResult>;
  isDirectory(path: string): Promise<boolean>;
  /** Credential paths and host sockets to hide inside the sandbox. */
  secretMasks(): SandboxMask[];
  /** Wait between SIGTERM and SIGKILL. */
  graceMs: number;
  /** Records the placeholders made for missing protected names, so a later start removes leftovers. */
  ledger: MountPointLedger;
  /** Entries the protected-path scan visits at most. */
  scanLimit: number;
};

export const defaultExecuteCommandEffects: ExecuteCommandEffects = {
  run: runInProcessGroup,
  isDirectory: (path) =>
    stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    ),
  secretMasks: () => [
    ...findSecretMasks(process.env.HOME, process.env.WARDEN_HOME),
    ...findSocketMasks(process.env.HOME, process.env.XDG_RUNTIME_DIR),
  ],
  graceMs: 2000,
  ledger: new MountPointLedger(),
  scanLimit: PROTECT_SCAN_LIMIT,
};

const schema = lazySchema((z) =>
  z.strictObject({
    command: z.string().min(1),
    cwd: z.string().optional(),
    timeout_ms: z.number().int().min(100).max(COMMAND_MAX_TIMEOUT_MS).optional(),
  }),
);

/**
 * What bash takes from its environment that changes how it reads the command: exported functions
 * (`BASH_FUNC_ls%%` replaces ls), CDPATH (`cd src` lands elsewhere), GLOBIGNORE, shell options and the
 * start-up files of non-interactive shells. The guard judged the command as a plain bash reads it.
 */
const SHELL_STEERING =
  /^(BASH_ENV|ENV|CDPATH|GLOBIGNORE|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|PS4|BASH_XTRACEFD|BASH_FUNC_.*)$/;

/** Environment for commands: secrets and shell-steering variables removed, and nothing waits on a terminal that is not there. */
export function commandEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env = scrubEnv(base).env;
  for (const name of Object.keys(env)) if (SHELL_STEERING.test(name)) delete env[name];
  // issue 27 §3: the hostile-repository-safe git settings (one separate hook, src/tools/exec/git-run-env.ts).
  return { ...env, GIT_TERMINAL_PROMPT: '0', PAGER: 'cat', GIT_PAGER: 'cat', ...GIT_RUN_ENV };
}

/**
 * execute_command: `bash -c` in its own process group, under bubblewrap when available; output capped at
 * 8 KB (head and tail), timeout 60 s by default (max 10 min), then the whole group is killed.
 * Output is streamed to `ctx.onOutput` while the command runs.
 * Contract: never throws. A command that ran is ok whatever its exit code; a timeout, a cancel (marked
 * `stopped`) or a failure to start is `ok:false`.
 */
export function createExecuteCommandTool(effects: ExecuteCommandEffects = defaultExecuteCommandEffects) {
  return defineTool({
    name: 'execute_command',
    summary: (args) => args.command,
    kind: 'execute',
    changesFiles: true,
    guarded: { command: 'command', paths: ['cwd'], cwd: 'cwd', timeout: 'timeout_ms' },
    description:
      'Run a bash command in the project (tests, builds, git), sandboxed when possible; 8 KB of output, 60 s default timeout. Not for reading files (read_file) or searching (grep_code).',
    schema,
    async execute(args, ctx) {
      const verdict = fencedPath(ctx, 'cwd', args.cwd ?? '.');
      if (!verdict.ok) return { ok: false, error: verdict.reason };
      if (!(await effects.isDirectory(verdict.path)))
        return { ok: false, error: `cwd ${shownPath(verdict.relative)} is not an existing folder.` };
      const timeoutMs = args.timeout_ms ?? COMMAND_DEFAULT_TIMEOUT_MS;
      const sandboxed = ctx.sandbox.kind === 'bwrap';
      const prepared = ctx.sandbox.kind === 'bwrap' ? prepareProtection(ctx, effects) : undefined;
      if (prepared && !prepared.ok) return { ok: false, error: `Not run: ${prepared.reason}` };
      const protection = prepared?.ok ? prepared : undefined;
      const [file, argv] =
        ctx.sandbox.kind === 'bwrap'
          ? [
              ctx.sandbox.path,
              [
                ...bwrapArgs(ctx.root, verdict.path, effects.secretMasks(), protection?.plan),
                'bash',
                '-c',
                args.command,
              ],
            ]
          : ['bash', ['-c', args.command]];
      let result: GroupRunResult;
      try {
        result = await effects.run({
          file,
          args: argv,
          cwd: verdict.path,
          // The sandbox has a private, empty /tmp: a TMPDIR pointing into the host's /tmp would not exist there.
          env: sandboxed ? { ...commandEnv(), TMPDIR: '/tmp' } : commandEnv(),
          timeoutMs,
          signal: ctx.signal,
          graceMs: effects.graceMs,
          maxOutputBytes: COMMAND_MAX_OUTPUT_BYTES,
          ...(ctx.onOutput ? { onOutput: ctx.onOutput } : {}),
        });
      } finally {
        protection?.claim.release();
      }
      const newGit = protection
        ? quarantineNewGit(ctx.root, protection.plan, ctx.liftProtected, effects.scanLimit)
        : [];
      if (result.kind === 'spawn_failed')
        return { ok: false, error: `Could not start the command: ${result.message}` };
      const footer = describeRun(
        result,
        timeoutMs,
        ctx.sandbox,
        protection?.plan,
        ctx.liftProtected?.map((p) => shownPath(relative(ctx.root, p))),
      );
      const hits = protection
        ? protectedHits(result.output, args.command, ctx.root, verdict.path, protection.plan)
        : [];
      const note =
        (hits.length > 0 ? `\n[${describeHits(hits)}]` : '') +
        (newGit.length > 0 ? `\n[${describeNewGit(ctx.root, newGit)}]` : '');
      const text = `${result.output === '' ? '(no output)' : result.output.replace(/\n$/, '')}${note}\n[${footer}]`;
      const data = {
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.ending === 'timed_out',
        cancelled: result.ending === 'aborted',
        sandboxed,
        outputBytes: result.totalBytes,
        cutBytes: result.cutBytes,
        durationMs: result.durationMs,
        ...(hits.length > 0 ? { protectedHits: hits.map((h) => h.path) } : {}),
        ...(newGit.length > 0
          ? { quarantined: newGit.map((g) => shownPath(relative(ctx.root, g.path))) }
          : {}),
      };
      if (result.ending === 'exited') return { ok: true, output: text, data };
      if (result.ending === 'aborted') return { ok: false, error: text, data, stopped: true };
      return { ok: false, error: text, data };
    },
  });
}

/**
 * Plans the protected mounts and claims the placeholders they need.
 * Contract: never throws; a protection the sandbox cannot give refuses the run with the reason.
 */
function prepareProtection(
  ctx: ToolContext,
  effects: ExecuteCommandEffects,
): { ok: true; plan: ProtectPlan; claim: MountClaim } | { ok: false; reason: string } {
  try {
    const plan = planProtection(
      ctx.root,
      ctx.fence.protectedPatterns,
      ctx.liftProtected ?? [],
      effects.scanLimit,
    );
    if (plan.refused) return { ok: false, reason: plan.refused };
    const claimed = effects.ledger.claim(plan.placeholders);
    return claimed.ok ? { ok: true, plan, claim: claimed.claim } : claimed;
  } catch (err) {
    return { ok: false, reason: `the protected paths could not be prepared (${(err as Error).message}).` };
  }
}

function describeNewGit(root: string, found: readonly NewGit[]): string {
  const rel = (p: string) => shownPath(relative(root, p));
  const moved = found.map((g) =>
    g.movedTo ? `${rel(g.path)} (moved to ${rel(g.movedTo)})` : `${rel(g.path)} (could not be moved)`,
  );
  return `This run created a git repository inside the project: ${moved.join(', ')}. A new .git is protected (git would run its settings outside the sandbox), so it was set aside; only a person's approval of a run that lists it can create one.`;
}

function describeRun(
  result: Extract<GroupRunResult, { kind: 'finished' }>,
  timeoutMs: number,
  sandbox: SandboxInfo,
  plan?: ProtectPlan,
  lifted?: readonly string[],
): string {
  const parts: string[] = [];
  if (result.ending === 'timed_out')
    parts.push(`timed out after ${formatSecondsTenths(timeoutMs)}; the process group was killed`);
  else if (result.ending === 'aborted') parts.push('cancelled; the process group was killed');
  else
    parts.push(
      result.exitCode === null ? `killed by ${result.signal ?? 'a signal'}` : `exit code ${result.exitCode}`,
    );
  parts.push(formatSecondsTenths(result.durationMs));
  if (result.cutBytes > 0) parts.push(`output ${result.totalBytes} bytes, middle cut`);
  if (result.straysStopped) parts.push('background processes it left running were stopped');
  if (sandbox.kind === 'none') parts.push(`not sandboxed: ${sandbox.reason}`);
  else parts.push('sandboxed: no network, only the project writable, protected paths read-only');
  if (sandbox.kind === 'bwrap' && lifted?.length) parts.push(`writable for this run: ${lifted.join(', ')}`);
  if (plan?.truncated)
    parts.push(
      `the protected-path scan stopped after ${plan.scanned - 1} entries: deeper .git folders and protected files were not made read-only`,
    );
  // ASCII, like the output it ends: one `·` would make the whole result two bytes a character in memory.
  return parts.join('; ');
}
