import type { FactDeps } from '../policy/facts';
import { networkEntries } from '../policy/network-hosts';
import type { Approver, ToolResultEnvelope } from '../protocol';
import type { AnyTool, ToolContext } from '../tools/types';
import type { RecordBase } from './audit-record';
import { type Ending, auditUnavailable, endingOfExecution, gateError } from './envelopes';
import type { GuardedExecutor } from './executor';
import type { GateAudit } from './gate-audit';
import type { Caller, RunExtras, ToolCall } from './gate-types';
import type { Provenance } from './provenance';
import { checkpointAheadOnce, readOnlyRun } from './read-only-run';
import type { TokenMint } from './tokens';

/** What the run step uses of the gate: its audit, its token mint, its executor and provenance. */
export type RunPorts = {
  audit: GateAudit;
  mint: TokenMint;
  executor: GuardedExecutor;
  deps: FactDeps;
  provenance: Provenance;
};

/**
 * The gate's steps after a decision to run: the decision line (no audit line, no execution), the
 * checkpoint, the one-time token, the executor's re-check and run, the outcome line.
 * `base.argsHash` is the hash of the arguments that were allowed, which the token binds.
 * `checked`: facts gathered just now, for a call allowed without waiting for a person: only the decision
 * line's write (one turn of the microtask queue) or the checkpoint lies between, and the tool's own file
 * operations check what they open against these verdicts (safe-fs: a concurrent process's swap is caught
 * there), so the executor need not gather them again; after a person's decision it must.
 * Contract: never throws for a failing sink, checkpoint or tool; each ends as an envelope.
 */
export async function runCall(
  ports: RunPorts,
  tool: AnyTool,
  args: Record<string, unknown>,
  caller: Caller,
  base: RecordBase & { call: ToolCall },
  approver: Approver,
  extra: RunExtras = {},
): Promise<ToolResultEnvelope> {
  const { audit } = ports;
  const { fileHash, answer, checked, lift, unmask } = extra;
  const seen = extra.seen ?? checked;
  const argsHash = base.argsHash;
  // No audit line, no execution: the decision line is written whole before any effect, or nothing runs.
  const decided = await audit.soon(base.call, caller, base, approver);
  if (!decided.ok) {
    const ending = auditUnavailable(decided.error, approver);
    audit.line(base.call, caller, base, approver, ending);
    return ending.envelope;
  }
  // No way back, no change: the checkpoint is taken after the decision and before any effect.
  let afterChange: (() => Promise<void>) | undefined;
  // A read-only command runs on a read-only project (read-only-run.ts): nothing for a checkpoint to hold.
  const readOnly = readOnlyRun(tool, seen, ports.deps.sandbox, lift);
  if (tool.changesFiles && caller.checkpoint && !readOnly) {
    const failed = await caller.checkpoint(tool.name).then(
      (after) => {
        afterChange = after || undefined;
        return undefined;
      },
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    if (failed !== undefined) {
      const ending = {
        ...gateError(`checkpoint_failed: no checkpoint could be taken (${failed}); nothing ran.`),
        approver,
      };
      audit.line(base.call, caller, base, approver, ending);
      return ending.envelope;
    }
  }
  // Cancelled after the decision (approved in the same instant, or while the checkpoint was taken):
  // the turn is over, so nothing starts — an approval does not outlive its task.
  if (caller.signal.aborted) {
    await afterChange?.();
    const why = typeof caller.signal.reason === 'string' ? caller.signal.reason : 'The turn was cancelled.';
    const reason = `task_cancelled: ${why} (after the decision, before it ran)`;
    const ending: Ending = {
      envelope: { status: 'cancelled', by: 'user', reason, retry: false },
      outcome: 'cancelled',
      approver,
      reason,
    };
    audit.line(base.call, caller, base, approver, ending);
    return ending.envelope;
  }
  const token = ports.mint.issue(
    fileHash !== undefined ? { tool: tool.name, argsHash, fileHash } : { tool: tool.name, argsHash },
  );
  const ctx = toolContext(ports.deps, caller, approver, base.call, { answer, lift, unmask });
  if (extra.network?.length) ctx.network = runNetwork(ports.audit, extra.network, caller, base, approver);
  if (readOnly) ctx.readOnlyProject = true;
  // The checkpoint after the call, before its result goes back: what changed in between is the call's own.
  const execution = await ports.executor.run(token, tool.name, args, ctx, checked).finally(afterChange);
  if (readOnly) checkpointAheadOnce(caller.checkpoint, tool.name);
  if (seen && (tool.changesFiles || seen.kind === 'write') && execution.kind === 'ran')
    ports.provenance.executed(seen, approver);
  const ending = endingOfExecution(execution, approver);
  await audit.soon(
    base.call,
    caller,
    execution.kind === 'ran' ? { ...base, durationMs: execution.durationMs } : base,
    approver,
    ending,
  );
  return ending.envelope;
}

/**
 * The hosts the run may reach, and the audit of each connection its proxy allows or refuses: a line
 * of the call (its request id and argument hash) with the connection as its arguments.
 */
function runNetwork(
  audit: GateAudit,
  hosts: readonly string[],
  caller: Caller,
  base: RecordBase & { call: ToolCall },
  approver: Approver,
): NonNullable<ToolContext['network']> {
  return {
    entries: networkEntries(hosts),
    audit: (connection) => audit.connection(base.call, caller, base, approver, connection),
  };
}

/** What the tool is handed: the verified environment, and what only a person's approval grants. */
function toolContext(
  deps: FactDeps,
  caller: Caller,
  approver: Approver,
  call: ToolCall,
  extra: Pick<RunExtras, 'answer' | 'lift' | 'unmask'>,
): ToolContext {
  const { answer, lift, unmask } = extra;
  const ctx: ToolContext = {
    root: deps.fence.root,
    fence: deps.fence,
    commands: deps.commands,
    sandbox: deps.sandbox,
    signal: caller.signal,
    agent: { id: caller.agentId, name: caller.agentName, taskId: caller.taskId },
  };
  if (caller.recordPreImage) ctx.recordPreImage = caller.recordPreImage;
  if (caller.agents) ctx.agents = caller.agents;
  if (answer !== undefined) ctx.answer = answer;
  if (lift && approver === 'human') ctx.liftProtected = lift;
  if (unmask && approver === 'human') ctx.unmaskCredentials = unmask;
  if (call.onOutput) ctx.onOutput = call.onOutput;
  if (approver === 'human') ctx.personApproved = true;
  return ctx;
}
