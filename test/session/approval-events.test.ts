import { describe, expect, it } from 'vitest';
import type { ApprovalEvent } from '../../src/gate/gate';
import type { ApprovalRequest, CoreEvent } from '../../src/protocol';
import { coreEventOfApproval } from '../../src/session/approval-events';

const request = { id: 'r1', tool: 'write_file' } as ApprovalRequest;
const resolved = (outcome: Extract<ApprovalEvent, { type: 'resolved' }>['outcome']): ApprovalEvent => ({
  type: 'resolved',
  request,
  outcome,
});

describe('the broker → UI event mapping', () => {
  const cases: { name: string; event: ApprovalEvent; want: CoreEvent }[] = [
    {
      name: 'requested',
      event: { type: 'requested', request },
      want: { type: 'approval_requested', request },
    },
    { name: 'updated', event: { type: 'updated', request }, want: { type: 'state_changed' } },
    {
      name: 'invalid input',
      event: { type: 'invalid_input', requestId: 'r1', count: 2, limit: 5 },
      want: { type: 'approval_input_invalid', requestId: 'r1', count: 2, limit: 5 },
    },
    {
      name: 'approved by a person',
      event: resolved({ kind: 'decided', decision: { kind: 'approve' }, approver: 'human', waitMs: 1 }),
      want: { type: 'approval_resolved', requestId: 'r1', outcome: 'executed', approver: 'human' },
    },
    {
      name: 'drained by a grant',
      event: resolved({ kind: 'decided', decision: { kind: 'approve' }, approver: 'grant', waitMs: 1 }),
      want: { type: 'approval_resolved', requestId: 'r1', outcome: 'executed', approver: 'grant' },
    },
    {
      name: 'rejected',
      event: resolved({
        kind: 'decided',
        decision: { kind: 'reject', reason: 'no' },
        approver: 'human',
        waitMs: 1,
      }),
      want: { type: 'approval_resolved', requestId: 'r1', outcome: 'rejected', approver: 'human' },
    },
    {
      name: 'skipped',
      event: resolved({ kind: 'decided', decision: { kind: 'skip' }, approver: 'human', waitMs: 1 }),
      want: { type: 'approval_resolved', requestId: 'r1', outcome: 'skipped', approver: 'human' },
    },
    {
      name: 'an edit that runs',
      event: resolved({
        kind: 'decided',
        decision: { kind: 'edit', args: {} },
        approver: 'human',
        waitMs: 1,
      }),
      want: { type: 'approval_resolved', requestId: 'r1', outcome: 'executed', approver: 'human' },
    },
    {
      name: 'blocked by the policy on an edit',
      event: resolved({ kind: 'blocked', ruleId: 'path-fence', reason: 'outside', waitMs: 1 }),
      want: {
        type: 'approval_resolved',
        requestId: 'r1',
        outcome: 'blocked',
        approver: 'policy',
        reason: 'outside',
      },
    },
    ...(
      [
        ['timeout', 'timeout'],
        ['expired', 'timeout'],
        ['task_cancelled', 'cancelled'],
        ['no_approver', 'error'],
        ['input_closed', 'error'],
        ['invalid_input', 'error'],
      ] as const
    ).map(([code, outcome]) => ({
      name: `failed: ${code} → ${outcome}`,
      event: resolved({ kind: 'failed', code, reason: 'why', waitMs: 1 }),
      want: {
        type: 'approval_resolved',
        requestId: 'r1',
        outcome,
        approver: 'none',
        reason: `${code}: why`,
      } as CoreEvent,
    })),
  ];

  it.each(cases)('$name', ({ event, want }) => {
    expect(coreEventOfApproval(event)).toEqual(want);
  });
});
