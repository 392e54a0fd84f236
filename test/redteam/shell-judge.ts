/**
 * Shared set-up for the shell red-team tests: the real command guard, the real execute_command
 * tool's declaration, the fence over a temp project, and the pure policy steps (guards → rules →
 * mode → grant scopes), so each case asserts what the gate would do with a hostile command.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grantOptions } from '../../src/gate/grants';
import { loadCommandGuard } from '../../src/policy/command/command-guard';
import type { CommandVerdict } from '../../src/policy/command/command-types';
import { type CallFacts, gatherFacts } from '../../src/policy/facts';
import { PathFence } from '../../src/policy/guards/path-guard';
import { type PolicyResult, resolvePolicy } from '../../src/policy/resolve';
import type { LoadedRule } from '../../src/policy/rules';
import type { GrantScope, Mode } from '../../src/protocol';
import { createExecuteCommandTool } from '../../src/tools/exec/execute-command';
import type { AnyTool, SandboxInfo } from '../../src/tools/types';

export const guard = await loadCommandGuard();
export const BWRAP: SandboxInfo = { kind: 'bwrap', path: '/usr/bin/bwrap' };
export const NO_SANDBOX: SandboxInfo = { kind: 'none', reason: 'test' };
export const MODES: readonly Mode[] = ['manual', 'auto-edit', 'auto', 'plan'];

const tool = createExecuteCommandTool() as unknown as AnyTool;

/** A temp project (removed by `remove`) and the fence over it. */
export function tempProject(): { base: string; root: string; fence: PathFence; remove(): void } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-redteam-shell-')));
  const root = join(base, 'project');
  mkdirSync(root);
  return {
    base,
    root,
    fence: new PathFence(root),
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}

export type Judged = {
  facts: CallFacts;
  verdict: CommandVerdict;
  policy: PolicyResult;
  /** Approve-all scopes the card would offer. */
  grants: GrantScope[];
};

/** What the gate's steps 1–2 say about `command`, and which grants its card would offer. */
export function judge(
  fence: PathFence,
  command: string,
  o: { mode?: Mode; sandbox?: SandboxInfo; rules?: LoadedRule[] } = {},
): Judged {
  const facts = gatherFacts(tool, { command }, { fence, commands: guard, sandbox: o.sandbox ?? BWRAP });
  const policy = resolvePolicy(facts, { rules: o.rules ?? [], mode: o.mode ?? 'manual' });
  const grants = grantOptions(facts, policy.risk, { agentId: 'main', agentName: 'main' });
  return { facts, verdict: facts.command as CommandVerdict, policy, grants };
}

/** The argv of every part the guard judged, expansions shown as their source. */
export const argvs = (v: CommandVerdict): string[][] =>
  v.parts.map((p) => p.argv.map((a) => a.replaceAll('\u0000', '')));
