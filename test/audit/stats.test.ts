import { describe, expect, it } from 'vitest';
import { auditStats, percentile } from '../../src/audit/stats';
import { record } from './helpers';

describe('auditStats', () => {
  it('is all zeros and nulls for no records', () => {
    expect(auditStats([])).toEqual({
      total: 0,
      outcomes: 0,
      humanDecisions: 0,
      byOutcome: {},
      byApprover: {},
      approveRate: 0,
      rejectRate: 0,
      editRate: 0,
      waitMedianMs: null,
      waitP95Ms: null,
      asked: 0,
      timeoutRate: 0,
      repeatRate: 0,
      rubberStampRate: 0,
      ruleHits: [],
    });
  });

  it('counts outcome lines only, and rates over human outcome records', () => {
    const records = [
      // A decision line and its outcome line for the same request: counted once.
      record({ requestId: 'r1', phase: 'decision', outcome: undefined, waitMs: 1000 }),
      record({ requestId: 'r1', outcome: 'executed', waitMs: 1000 }),
      record({ requestId: 'r2', outcome: 'executed', editedArgs: { command: 'pnpm test' }, waitMs: 3000 }),
      record({ requestId: 'r3', outcome: 'rejected', waitMs: 2000 }),
      record({ requestId: 'r4', outcome: 'skipped', waitMs: 4000 }),
      record({ requestId: 'r5', outcome: 'executed', approver: 'policy', decision: 'allow' }),
      record({ requestId: 'r6', outcome: 'executed', approver: 'grant', decision: 'allow' }),
      record({ requestId: 'r7', outcome: 'timeout', approver: 'none', waitMs: 600_000 }),
    ];
    const stats = auditStats(records);
    expect(stats.total).toBe(8);
    expect(stats.outcomes).toBe(7);
    expect(stats.byOutcome).toEqual({ executed: 4, rejected: 1, skipped: 1, timeout: 1 });
    expect(stats.byApprover).toEqual({ human: 4, policy: 1, grant: 1, none: 1 });
    expect(stats.humanDecisions).toBe(4);
    expect(stats.approveRate).toBe(0.25);
    expect(stats.editRate).toBe(0.25);
    expect(stats.rejectRate).toBe(0.25);
    // Waits per request: 1000, 3000, 2000, 4000, 600000.
    expect(stats.waitMedianMs).toBe(3000);
    expect(stats.waitP95Ms).toBe(600_000);
  });

  it('an edited call that was then rejected counts as an edit, not twice', () => {
    const stats = auditStats([record({ outcome: 'rejected', editedArgs: {} })]);
    expect([stats.approveRate, stats.editRate, stats.rejectRate]).toEqual([0, 1, 0]);
  });
});

describe('percentile', () => {
  it.each([
    [[], 50, null],
    [[5], 95, 5],
    [[1, 2, 3, 4], 50, 2],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95, 10],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50, 5],
  ])('%j p%d = %s', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });
});
