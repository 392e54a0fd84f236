import type { Approver, DecidedBy, ToolResultEnvelope } from '../protocol';
import type { AuditWrite } from '../protocol/audit';
import type { NetworkConnection } from '../tools/types';
import { type RecordBase, auditRecord, connectionRecord } from './audit-record';
import type { Ending } from './envelopes';
import type { AuditSink, Caller, ToolCall } from './gate-types';
import { safeHash } from './gate-steps';

/**
 * The gate's audit step: one line per decision and per outcome, written through the session's sink.
 * Contract: no method throws; a sink that throws counts as a line not written.
 */
export class GateAudit {
  constructor(
    private readonly sink: AuditSink,
    private readonly sessionId: string,
  ) {}

  /**
   * One audit line (see auditRecord): the decision (no `stage`), a request queued, or the outcome, of
   * a call let through (run-call.ts writes these: verdict `accept`); `both` writes a stopped call's.
   */
  line(
    call: ToolCall,
    caller: Caller,
    base: RecordBase,
    approver: Approver,
    stage?: Ending | 'requested',
  ): AuditWrite {
    return this.write(call, caller, base, approver, stage, 'accept');
  }

  /**
   * The `requested` line of a request queued for a person; with `by`, of the first approval of a card
   * that needs two people (`partial: 1 of 2`, approver `human`): it waits for the second.
   */
  requested(
    call: ToolCall,
    caller: Caller,
    base: RecordBase,
    request: { id: string },
    by?: DecidedBy,
  ): AuditWrite {
    const line = by
      ? { ...base, requestId: request.id, decidedBy: by, partial: '1 of 2' }
      : { ...base, requestId: request.id };
    return this.line(call, caller, line, by ? 'human' : 'none', 'requested');
  }

  /** `line`, sharing a write with the lines made in the same microtask turn. Contract: never rejects. */
  async soon(
    call: ToolCall,
    caller: Caller,
    base: RecordBase,
    approver: Approver,
    stage?: Ending,
  ): Promise<AuditWrite> {
    try {
      const record = auditRecord(this.sessionId, call, caller, base, approver, stage, 'accept');
      return await this.sink.appendSoon(record);
    } catch (err) {
      return { ok: false, error: (err as Error)?.message ?? String(err) };
    }
  }

  /** One line for a connection a run's proxy allowed or refused (phase `connection`), written now. */
  connection(
    call: ToolCall,
    caller: Caller,
    base: RecordBase,
    approver: Approver,
    connection: NetworkConnection,
  ): AuditWrite {
    try {
      return this.sink.append(connectionRecord(this.sessionId, call, caller, base, approver, connection));
    } catch (err) {
      return { ok: false, error: (err as Error)?.message ?? String(err) };
    }
  }

  /** Writes the decision line and the outcome line of a call that ends without running (verdict `reject`). */
  both(call: ToolCall, caller: Caller, base: RecordBase, ending: Ending): void {
    this.write(call, caller, base, ending.approver, undefined, 'reject');
    this.write(call, caller, base, ending.approver, ending, 'reject');
  }

  private write(
    call: ToolCall,
    caller: Caller,
    base: RecordBase,
    approver: Approver,
    stage: Ending | 'requested' | undefined,
    verdict: 'accept' | 'reject',
  ): AuditWrite {
    try {
      return this.sink.append(auditRecord(this.sessionId, call, caller, base, approver, stage, verdict));
    } catch (err) {
      return { ok: false, error: (err as Error)?.message ?? String(err) };
    }
  }

  /** A call the gate cannot read as a call (unknown tool, bad arguments): denied under `rule`, retry allowed. */
  refuse(call: ToolCall, caller: Caller, rule: string, reason: string): ToolResultEnvelope {
    const ending: Ending = {
      envelope: { status: 'error', by: 'gate', reason, retry: true },
      outcome: 'error',
      approver: 'none',
      reason,
    };
    this.both(call, caller, { decision: 'deny', rule, risk: 'low', argsHash: safeHash(call.args) }, ending);
    return ending.envelope;
  }

  /** A task the person cancelled: one outcome line, outcome `cancelled`, approver `human`. */
  cancelled(task: { agentId: string; agentName: string; taskId: string }, reason: string): void {
    const args = { cancelled: task.taskId };
    const ending: Ending = {
      envelope: { status: 'cancelled', by: 'user', reason },
      outcome: 'cancelled',
      approver: 'human',
      reason: `task_cancelled: ${reason}`,
    };
    this.write(
      { id: `cancel-${task.taskId}`, tool: 'task', args },
      { ...task, signal: new AbortController().signal },
      { decision: 'deny', rule: 'person', risk: 'low', argsHash: safeHash(args) },
      'human',
      ending,
      'reject',
    );
  }
}
