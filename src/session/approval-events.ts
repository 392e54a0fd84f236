import type { ApprovalEvent } from '../gate/gate';
import type { CoreEvent } from '../protocol';

/** The UI's event for one of the approval queue's events. Contract: pure; every queue event maps to one. */
export function coreEventOfApproval(e: ApprovalEvent): CoreEvent {
  switch (e.type) {
    case 'requested':
      return { type: 'approval_requested', request: e.request };
    case 'updated':
      return { type: 'state_changed' };
    case 'invalid_input':
      return { type: 'approval_input_invalid', requestId: e.requestId, count: e.count, limit: e.limit };
    case 'resolved': {
      const o = e.outcome;
      if (o.kind === 'decided')
        return {
          type: 'approval_resolved',
          requestId: e.request.id,
          outcome:
            o.decision.kind === 'reject' ? 'rejected' : o.decision.kind === 'skip' ? 'skipped' : 'executed',
          approver: o.approver,
        };
      if (o.kind === 'blocked')
        return {
          type: 'approval_resolved',
          requestId: e.request.id,
          outcome: 'blocked',
          approver: 'policy',
          reason: o.reason,
        };
      return {
        type: 'approval_resolved',
        requestId: e.request.id,
        outcome:
          o.code === 'timeout' || o.code === 'expired'
            ? 'timeout'
            : o.code === 'task_cancelled'
              ? 'cancelled'
              : 'error',
        approver: 'none',
        reason: `${o.code}: ${o.reason}`,
      };
    }
  }
}
