import type { Approver, Outcome, ToolResultEnvelope } from '../protocol';
import type { BrokerOutcome } from './broker';
import type { Execution } from './executor';

/** How a call ended, in the shape both the model (envelope) and the audit (outcome, approver) need. */
export type Ending = { envelope: ToolResultEnvelope; outcome: Outcome; approver: Approver; reason?: string };

/** A denial; `approver` is 'rule' when a user or project rule denied, `hook:<name>` for a hook, else 'policy' (guards, defaults, modes). */
export function blocked(
  rule: string,
  reason: string,
  by: 'guard' | 'policy' | 'hook',
  approver: Approver = 'policy',
): Ending {
  return {
    envelope: { status: 'blocked', by, rule, reason, retry: false },
    outcome: 'blocked',
    approver,
    reason,
  };
}

export function gateError(reason: string): Ending {
  return {
    envelope: { status: 'error', by: 'gate', reason, retry: false },
    outcome: 'error',
    approver: 'none',
    reason,
  };
}

/** A call the person already rejected in this task, answered again without asking. */
export function repeatRejected(): Ending {
  const reason =
    'repeat_rejected: the person already rejected exactly this call in this task; change the plan instead of asking again.';
  return {
    envelope: { status: 'rejected', by: 'gate', reason, retry: false },
    outcome: 'rejected',
    approver: 'none',
    reason,
  };
}

/** The decision line could not be written, so the call did not run (no audit line, no execution). */
export function auditUnavailable(error: string, approver: Approver): Ending {
  const reason = `audit_unavailable: the audit log cannot be written (${error}); nothing ran.`;
  return {
    envelope: { status: 'error', by: 'gate', reason, retry: false },
    outcome: 'error',
    approver,
    reason,
  };
}

/** A request that left the queue without running: the person said no, or no decision came. */
export function endingWithoutRun(outcome: BrokerOutcome): Ending | undefined {
  if (outcome.kind === 'blocked') return blocked(outcome.ruleId, outcome.reason, 'policy');
  if (outcome.kind === 'failed') {
    const status: Outcome =
      outcome.code === 'timeout' || outcome.code === 'expired'
        ? 'timeout'
        : outcome.code === 'task_cancelled' || outcome.code === 'parked'
          ? 'cancelled'
          : outcome.code === 'repeat_rejected'
            ? 'rejected'
            : 'error';
    const reason = `${outcome.code}: ${outcome.reason}`;
    return {
      envelope: { status, by: 'gate', reason, retry: false },
      outcome: status,
      approver: 'none',
      reason,
    };
  }
  const d = outcome.decision;
  if (d.kind === 'reject') {
    const reason = d.reason?.trim() || undefined;
    // A PermissionRequest hook's rejection says whose it was: the model is not told the person said no.
    const hook = outcome.approver.startsWith('hook:') ? outcome.approver : undefined;
    return {
      envelope: {
        status: 'rejected',
        by: hook ? 'hook' : 'user',
        ...(hook ? { rule: hook } : {}),
        ...(reason ? { reason } : {}),
        retry: true,
      },
      outcome: 'rejected',
      approver: hook ?? 'human',
      ...(reason ? { reason } : {}),
    };
  }
  if (d.kind === 'skip')
    return {
      envelope: {
        status: 'skipped',
        by: 'user',
        reason: 'The person skipped this call; carry on without it.',
      },
      outcome: 'skipped',
      approver: 'human',
    };
  return undefined;
}

/** What an execution attempt amounts to. */
export function endingOfExecution(run: Execution, approver: Approver): Ending {
  switch (run.kind) {
    case 'ran':
      // The person stopped it (cancel): the truth is "cancelled", with what it printed until then.
      if (!run.output.ok && run.output.stopped)
        return {
          envelope: { status: 'cancelled', by: 'user', reason: run.output.error, retry: false },
          outcome: 'cancelled',
          approver,
          reason: run.output.error,
        };
      return run.output.ok
        ? {
            envelope: {
              status: 'executed',
              output: run.output.output,
              ...(run.output.data !== undefined ? { data: run.output.data } : {}),
            },
            outcome: 'executed',
            approver,
          }
        : {
            envelope: { status: 'error', by: 'tool', reason: run.output.error, retry: true },
            outcome: 'error',
            approver,
            reason: run.output.error,
          };
    case 'blocked':
      return blocked(run.ruleId, run.reason, 'guard');
    case 'refused':
      return gateError(`${run.code}: ${run.reason}`);
    case 'file_changed':
      return {
        envelope: { status: 'error', by: 'gate', reason: `file_changed: ${run.reason}`, retry: true },
        outcome: 'error',
        approver,
        reason: run.reason,
      };
    case 'crashed':
      return {
        envelope: { status: 'error', by: 'tool', reason: run.reason, retry: true },
        outcome: 'error',
        approver,
        reason: run.reason,
      };
  }
}
