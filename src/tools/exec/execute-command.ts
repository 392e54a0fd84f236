import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { lazySchema } from '../../lazy-zod';
import { formatSecondsTenths } from '../../text/duration';
import { scrubEnv } from './env-scrub';
import { GIT_RUN_ENV } from './git-run-env';
import { shownPath } from '../fs/fs-common';
import { type GroupRunRequest, type GroupRunResult, runInProcessGroup } from './process-group';
import { gitConfigPaths } from './git-config-paths';
import { managedDir } from '../../os/managed-dir';
import { bwrapArgs, defaultLayout, type SandboxLayout, type SandboxMask, wardenHomeMasks } from './sandbox';
import { describeHits, protectedHits } from './sandbox-denials';
import { type MountClaim, MountPointLedger } from './sandbox-mount-points';
import { type NewGit, quarantineNewGit } from './sandbox-new-git';
import { viewNotes } from './sandbox-notes';
import { PROTECT_SCAN_LIMIT, type ProtectPlan, planProtection } from './sandbox-protect';
import { ProtectionCache } from './sandbox-protect-cache';
import { type Appeared, holdLifts, quarantineAppeared } from './sandbox-quarantine';
import { socketFilter } from './sandbox-seccomp';
import { type NetworkReport, type NetworkRun, startNetworkRun } from './network/run-network';
import { MAX_NETWORK_ENTRIES, parseNetworkEntry } from '../../policy/network-hosts';
import type { Resolver } from '../web/web-http';
import { defineTool, fencedPath, type SandboxInfo, type ToolContext } from '../types';

export const COMMAND_DEFAULT_TIMEOUT_MS = 60_000;
export const COMMAND_MAX_TIMEOUT_MS = 600_000;
/** Output the model sees: head and tail, this many bytes in total. */
export const COMMAND_MAX_OUTPUT_BYTES = 8 * 1024;

/** The operations execute_command uses; tests swap them or shorten the kill grace. */
export type ExecuteCommandEffects = {
  run(request: GroupRunRequest): Promise<GroupRunResult>;
  isDirectory(path: string): Promise<boolean>;
  /** What the sandbox shows of the host for a project (sandbox-view.ts) and the files it mounts from. */
  layout(root: string): SandboxLayout;
  /** Folders to hide even where the view shows them: WARDEN_HOME and the managed folder inside the project. */
  hiddenPaths(): SandboxMask[];
  /** Wait between SIGTERM and SIGKILL. */
  graceMs: number;
  /** Records the placeholders made for missing files a person approved writing in read-only folders. */
  ledger: MountPointLedger;
  /** Entries the protected-path scan visits at most. */
  scanLimit: number;
  /** Remembers the scan between runs while nothing it read changed (sandbox-protect-cache.ts); absent, every run scans. */
  protection?: ProtectionCache;
  /** Resolves the names a run's proxy connects to (default: the system's resolver). */
  lookup?: Resolver;
};

export const defaultExecuteCommandEffects: ExecuteCommandEffects = {
  run: runInProcessGroup,
  isDirectory: (path) =>
    stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    ),
  layout: (root) => defaultLayout(root),
  // WARDEN_HOME (every project's records) and the managed folder (the machine's policy) wherever they lie.
  hiddenPaths: () => [...wardenHomeMasks(process.env.WARDEN_HOME), ...wardenHomeMasks(managedDir())],
  graceMs: 2000,
  ledger: new MountPointLedger(),
  scanLimit: PROTECT_SCAN_LIMIT,
  protection: new ProtectionCache(),
};

const schema = lazySchema((z) =>
  z.strictObject({
    command: z.string().min(1),
    cwd: z.string().optional(),
    timeout_ms: z.number().int().min(100).max(COMMAND_MAX_TIMEOUT_MS).optional(),
    network: z
      .array(
        z.string().superRefine((entry, issue) => {
          const verdict = parseNetworkEntry(entry);
          if (!verdict.ok) issue.addIssue({ code: 'custom', message: verdict.error });
        }),
      )
      .max(MAX_NETWORK_ENTRIES)
      .optional()
      .describe(
        'Hosts it must reach (registry.npmjs.org, *.github.com, host:port), approved by the person; none: no network.',
      ),
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
  // A shell always has SHELL; without it GNU make 4.3 evaluates a command-line `X:=$(shell …)` with an empty
  // shell ("make: -c: No such file"). CI runners and `env -i` start warden without one.
  env.SHELL ??= '/bin/sh';
  // The hostile-repository-safe git settings (one separate hook, src/tools/exec/git-run-env.ts).
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
    hookAlias: { name: 'Bash', input: (a) => ({ timeout: a.timeout_ms }) },
    changesFiles: true,
    readOnlyWhenJudged: true,
    guarded: { command: 'command', paths: ['cwd'], cwd: 'cwd', timeout: 'timeout_ms', network: 'network' },
    description:
      'Run a bash command in the project (tests, builds, git), sandboxed when possible (offline unless `network` names hosts); 8 KB of output, 60 s default timeout. Not for reading files (read_file) or searching (grep_code).',
    schema,
    warm({ root, fence }) {
      try {
        effects.layout(root);
        effects.protection?.plan(root, fence.protectedPatterns, [], effects.scanLimit, {
          unmask: [],
          named: gitConfigPaths(root),
        });
      } catch {
        // The first run does this work itself, and reports what fails.
      }
    },
    async execute(args, ctx) {
      const verdict = fencedPath(ctx, 'cwd', args.cwd ?? '.');
      if (!verdict.ok) return { ok: false, error: verdict.reason };
      if (!(await effects.isDirectory(verdict.path)))
        return { ok: false, error: `cwd ${shownPath(verdict.relative)} is not an existing folder.` };
      const timeoutMs = args.timeout_ms ?? COMMAND_DEFAULT_TIMEOUT_MS;
      const sandboxed = ctx.sandbox.kind === 'bwrap';
      // Read once: what the card lifted is fixed for the whole run.
      const lifted = [...(ctx.liftProtected ?? [])];
      // Judged read-only (src/gate/read-only-run.ts): the gate took no checkpoint, so nothing may change.
      const readOnly = ctx.readOnlyProject === true && lifted.length === 0;
      const prepared = ctx.sandbox.kind === 'bwrap' ? prepareProtection(ctx, effects) : undefined;
      if (prepared && !prepared.ok) return { ok: false, error: `Not run: ${prepared.reason}` };
      const protection = prepared?.ok ? prepared : undefined;
      const masks = protection ? [...effects.hiddenPaths(), ...protection.plan.masked] : [];
      // Hosts the gate approved: the sandbox reaches them through warden's proxy (network/), nothing else.
      const networked =
        protection && ctx.network?.entries.length
          ? startNetworkRun(ctx.network, protection.layout.view, effects.lookup)
          : undefined;
      if (networked && !networked.ok) {
        protection?.claim.release();
        return { ok: false, error: `Not run: ${networked.reason}` };
      }
      const net: NetworkRun | undefined = networked?.run;
      const [file, argv] =
        ctx.sandbox.kind === 'bwrap' && protection
          ? [
              ctx.sandbox.path,
              [
                ...bwrapArgs(ctx.root, verdict.path, masks, protection.plan, protection.layout, readOnly),
                ...(net ? [...net.mounts, ...net.argv(args.command)] : ['bash', '-c', args.command]),
              ],
            ]
          : ['bash', ['-c', args.command]];
      const filter = protection?.layout.state.seccomp ? socketFilter() : undefined;
      // Another run's end must not set aside what this run's card lets it create.
      const releaseLifts = holdLifts(lifted);
      let result: GroupRunResult;
      let networkEnded: Promise<NetworkReport> | undefined;
      try {
        result = await effects.run({
          file,
          args: argv,
          cwd: verdict.path,
          // The sandbox has a private, empty /tmp: a TMPDIR pointing into the host's /tmp would not exist there.
          // HOME is the private home the view made (the same path, emptied but for toolchains and caches).
          env: protection
            ? {
                ...commandEnv(),
                TMPDIR: '/tmp',
                ...(protection.layout.view.home ? { HOME: protection.layout.view.home } : {}),
              }
            : commandEnv(),
          timeoutMs,
          signal: ctx.signal,
          graceMs: effects.graceMs,
          maxOutputBytes: COMMAND_MAX_OUTPUT_BYTES,
          ...(ctx.onOutput ? { onOutput: ctx.onOutput } : {}),
          ...(filter ? { fd3: filter } : {}),
          ...(net ? { onListener: net.onListener } : {}),
        });
      } finally {
        protection?.claim.release();
        // The proxy ends with the run, whatever happened: no connection outlives it.
        networkEnded = net?.finish();
      }
      const network = await networkEnded;
      // A read-only project cannot have gained a .git or a protected name: nothing to look for.
      const newGit =
        protection && !readOnly ? quarantineNewGit(ctx.root, protection.plan, lifted, effects.scanLimit) : [];
      releaseLifts();
      const appeared = protection && !readOnly ? quarantineAppeared(protection.plan.watched, lifted) : [];
      if (result.kind === 'spawn_failed')
        return { ok: false, error: `Could not start the command: ${result.message}` };
      const footer = describeRun(
        result,
        timeoutMs,
        ctx.sandbox,
        protection?.plan,
        lifted.map((p) => shownPath(relative(ctx.root, p))),
        readOnly,
        network,
      );
      const hits = protection
        ? protectedHits(result.output, args.command, ctx.root, verdict.path, protection.plan)
        : [];
      const seen = protection
        ? viewNotes(args.command, result.output, ctx.root, verdict.path, protection.layout.view, masks)
        : [];
      const note =
        (hits.length > 0 ? `\n[${describeHits(hits)}]` : '') +
        (newGit.length > 0 ? `\n[${describeNewGit(ctx.root, newGit)}]` : '') +
        (appeared.length > 0 ? `\n[${describeAppeared(ctx.root, appeared)}]` : '') +
        [...(network?.notes ?? []), ...seen].map((n) => `\n[${n}]`).join('');
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
        ...(network ? { network: network.data } : {}),
        ...(hits.length > 0 ? { protectedHits: hits.map((h) => h.path) } : {}),
        ...(newGit.length + appeared.length > 0
          ? { quarantined: [...newGit, ...appeared].map((g) => shownPath(relative(ctx.root, g.path))) }
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
): { ok: true; plan: ProtectPlan; claim: MountClaim; layout: SandboxLayout } | { ok: false; reason: string } {
  try {
    const lifted = ctx.liftProtected ?? [];
    const more = { unmask: [...(ctx.unmaskCredentials ?? []), ...lifted], named: gitConfigPaths(ctx.root) };
    const plan = effects.protection
      ? effects.protection.plan(ctx.root, ctx.fence.protectedPatterns, lifted, effects.scanLimit, more)
      : planProtection(ctx.root, ctx.fence.protectedPatterns, lifted, effects.scanLimit, more);
    if (plan.refused) return { ok: false, reason: plan.refused };
    const layout = effects.layout(ctx.root);
    const claimed = effects.ledger.claim(plan.placeholders);
    return claimed.ok ? { ok: true, plan, claim: claimed.claim, layout } : claimed;
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

function describeAppeared(root: string, found: readonly Appeared[]): string {
  const rel = (p: string) => shownPath(relative(root, p));
  const moved = found.map((a) =>
    a.movedTo ? `${rel(a.path)} (moved to ${rel(a.movedTo)})` : `${rel(a.path)} (could not be moved)`,
  );
  return `This run created protected paths that did not exist before: ${moved.join(', ')}. The person's own tools run or read these later (git, npm, hook runners), so they were set aside; only a person's approval of a run that lists them can create them.`;
}

function describeRun(
  result: Extract<GroupRunResult, { kind: 'finished' }>,
  timeoutMs: number,
  sandbox: SandboxInfo,
  plan?: ProtectPlan,
  lifted?: readonly string[],
  readOnly = false,
  network?: NetworkReport,
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
  const net = network?.footer ?? 'no network';
  if (sandbox.kind === 'none') parts.push(`not sandboxed: ${sandbox.reason}`);
  else if (readOnly)
    parts.push(
      `sandboxed: ${net}, no host files but the system folders and the project, credential files masked, the project read-only (a read-only command: run one that writes to change files)`,
    );
  else
    parts.push(
      `sandboxed: ${net}, no host files but the system folders and the project, credential files masked, only the project writable, protected paths read-only`,
    );
  if (sandbox.kind === 'bwrap' && lifted?.length) parts.push(`writable for this run: ${lifted.join(', ')}`);
  // A failure may be the missing network: the model learns how to ask for hosts.
  if (sandbox.kind === 'bwrap' && !network && result.exitCode !== 0)
    parts.push('a command that needs the network names its hosts in `network`');
  if (plan?.truncated)
    parts.push(
      `the protected-path scan stopped after ${plan.scanned - 1} entries: deeper .git folders and protected files were not made read-only`,
    );
  // ASCII, like the output it ends: one `·` would make the whole result two bytes a character in memory.
  return parts.join('; ');
}
