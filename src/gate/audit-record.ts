import { isoNow } from '../audit/iso-now';
import { redactJsonText, redactThenCut } from '../audit/redact';
import type { Approver, DecidedBy } from '../protocol';
import type { AuditRecord } from '../protocol/audit';
import type { BrokerOutcome } from './broker';
import type { Ending } from './envelopes';

/** What the gate knows of a call when it writes a line about it. */
export type RecordBase = {
  decision: 'allow' | 'ask' | 'deny';
  rule: string;
  risk: 'low' | 'medium' | 'high';
  argsHash: string;
  requestId?: string;
  waitMs?: number;
  durationMs?: number;
  editedArgs?: unknown;
  /** The original request's id when this call was offered again after a restart. */
  resumedFrom?: string;
  /** Who gave the decision and through which channel (a person's or a hook's); the first of two. */
  decidedBy?: DecidedBy;
  /** Who gave the second approval of a card that needed two people. */
  secondBy?: DecidedBy;
  /** `1 of 2`: the first approval of a two-person card, recorded while it waits for the second. */
  partial?: string;
};

type Who = { agentId: string; agentName: string; taskId: string; origin?: 'person' };

/**
 * One audit line: the decision (no `stage`), a request queued for a person (`'requested'`) or the
 * outcome, with the call's `verdict` (let through or stopped) on the decision and outcome lines.
 * Fields are set in a fixed order, absent ones left out; the result is redacted, then cut.
 */
export function auditRecord(
  sessionId: string,
  call: { tool: string; args: unknown },
  caller: Who,
  base: RecordBase,
  approver: Approver,
  stage?: Ending | 'requested',
  verdict?: 'accept' | 'reject',
): AuditRecord {
  const ending = stage === 'requested' ? undefined : stage;
  const record: AuditRecord = { ts: isoNow(), sessionId } as AuditRecord;
  if (base.requestId) record.requestId = base.requestId;
  record.agentId = caller.agentId;
  record.agentName = caller.agentName;
  record.taskId = caller.taskId;
  record.tool = call.tool;
  // Arguments the gate could not read as a call (an unknown tool, a schema they fail) are the model's
  // JSON text: redacted as the data it encodes (behind `\n` escapes a line rule sees nothing), and
  // kept as text, so the writer's cut still bounds a line however much the model sent.
  record.args = typeof call.args === 'string' ? redactJsonText(call.args) : call.args;
  if (base.editedArgs !== undefined) record.editedArgs = base.editedArgs;
  record.argsHash = base.argsHash;
  record.decision = base.decision;
  record.approver = approver;
  if (verdict && stage !== 'requested') record.verdict = verdict;
  if (base.decidedBy) record.decidedBy = base.decidedBy;
  if (base.secondBy) record.secondBy = base.secondBy;
  if (base.partial) record.partial = base.partial;
  record.phase = ending ? 'outcome' : stage === 'requested' ? 'requested' : 'decision';
  if (ending) record.outcome = ending.outcome;
  record.rule = base.rule;
  record.risk = base.risk;
  if (ending?.reason) record.reason = ending.reason;
  if (base.waitMs !== undefined) record.waitMs = base.waitMs;
  if (ending && base.durationMs !== undefined) record.durationMs = base.durationMs;
  const output = ending?.envelope.output;
  // Redacted before the cut: a token the cut would split must not keep its first half in the file.
  if (output) record.result = redactThenCut(output, 200);
  if (base.resumedFrom) record.resumedFrom = base.resumedFrom;
  if (caller.origin) record.origin = caller.origin;
  return record;
}

/**
 * The line of one connection a run's proxy allowed or refused: the call's line (request id, argument
 * hash, approver, risk) with the connection as its arguments (`CONNECT host:port`, `GET http://host/path`)
 * and the proxy's decision and rule. Only the call's identity is kept of `base` (no wait, no edit).
 */
export function connectionRecord(
  sessionId: string,
  call: { tool: string },
  caller: Who,
  base: RecordBase,
  approver: Approver,
  connection: { target: string; decision: 'allow' | 'deny'; rule: string; reason?: string },
): AuditRecord {
  const own: RecordBase = {
    decision: connection.decision,
    rule: connection.rule,
    risk: base.risk,
    argsHash: base.argsHash,
    ...(base.requestId ? { requestId: base.requestId } : {}),
  };
  const record = auditRecord(
    sessionId,
    { tool: call.tool, args: { connection: connection.target } },
    caller,
    own,
    approver,
  );
  record.phase = 'connection';
  if (connection.reason) record.reason = connection.reason;
  return record;
}

/** What a request's audit lines carry of how it left the queue: the wait, and who decided (both of two). */
export function deciders(
  outcome: BrokerOutcome,
): Pick<RecordBase, 'waitMs' | 'decidedBy' | 'secondBy'> & { waitMs: number } {
  if (outcome.kind !== 'decided') return { waitMs: outcome.waitMs };
  return {
    waitMs: outcome.waitMs,
    ...(outcome.by ? { decidedBy: outcome.by } : {}),
    ...(outcome.secondBy ? { secondBy: outcome.secondBy } : {}),
  };
}
