import { describe, expect, it } from 'vitest';
import { auditStats } from '../../src/audit/stats';
import type { AuditRecord } from '../../src/protocol/audit';
import { record } from './helpers';

// Issue 14 §6: the approval metrics of the survey, on fixed records.

/** One asked call as the gate writes it: requested, decision and outcome lines. */
function asked(id: string, overrides: Partial<AuditRecord> & { waitMs?: number } = {}): AuditRecord[] {
  const { outcome = 'executed', approver = 'human', ...rest } = overrides;
  return [
    record({
      requestId: id,
      phase: 'requested',
      outcome: undefined,
      approver: 'none',
      ...rest,
      waitMs: undefined,
    }),
    record({ requestId: id, phase: 'decision', outcome: undefined, approver, ...rest }),
    record({ requestId: id, phase: 'outcome', outcome, approver, ...rest }),
  ];
}
/** A call the policy allowed: decision and outcome lines, no request. */
const allowed = (rule: string): AuditRecord[] => [
  record({ phase: 'decision', outcome: undefined, decision: 'allow', approver: 'policy', rule }),
  record({ phase: 'outcome', outcome: 'executed', decision: 'allow', approver: 'policy', rule }),
];

describe('approval metrics', () => {
  const day: AuditRecord[] = [
    ...asked('r1', { waitMs: 400, argsHash: 'a' }),
    ...asked('r2', { waitMs: 900, argsHash: 'a' }),
    ...asked('r3', { waitMs: 5000, argsHash: 'b' }),
    ...asked('r4', { waitMs: 2000, argsHash: 'c', outcome: 'rejected' }),
    ...asked('r5', { waitMs: 300, argsHash: 'd', editedArgs: { command: 'pnpm test' } }),
    ...asked('r6', { waitMs: 600_000, argsHash: 'e', outcome: 'timeout', approver: 'none' }),
    // The gate answered an exact repeat of a rejected call without asking.
    record({ phase: 'decision', outcome: undefined, approver: 'none', argsHash: 'c' }),
    record({
      outcome: 'rejected',
      approver: 'none',
      argsHash: 'c',
      reason: 'repeat_rejected: already rejected',
    }),
    ...allowed('read-only-command'),
    ...allowed('read-only-command'),
    ...allowed('builtin-read'),
    // The person's own act (an accepted suggestion): no decision on an agent's call.
    record({ phase: 'outcome', origin: 'person', rule: 'suggestion', tool: 'warden.save_rule', waitMs: 10 }),
  ];
  const stats = auditStats(day);

  it.each<[string, number | undefined, number]>([
    ['asked (distinct requests)', stats.asked, 6],
    ['human decisions (the own act left out)', stats.humanDecisions, 5],
    ['approval rate: r1 r2 r3 of 5', stats.approveRate, 3 / 5],
    ['rejection rate: r4 of 5', stats.rejectRate, 1 / 5],
    ['edit rate: r5 of 5', stats.editRate, 1 / 5],
    ['timeout rate: r6 of 6 asked', stats.timeoutRate, 1 / 6],
    ['repeat rate: r2 repeats r1, plus one gate repeat, of 7', stats.repeatRate, 2 / 7],
    ['rubber-stamp rate: r1 (400 ms) r2 (900 ms) of 3 approvals', stats.rubberStampRate, 2 / 3],
  ])('%s', (_name, value, expected) => {
    expect(value).toBeCloseTo(expected, 10);
  });

  it('waits: median and p95 over one wait per request', () => {
    // 300, 400, 900, 2000, 5000, 600000 (the own act has no request) + the own act's 10.
    expect(stats.waitMedianMs).toBe(900);
    expect(stats.waitP95Ms).toBe(600_000);
  });

  it('rule hits: one per decision line, most first, with how many asked', () => {
    expect(stats.ruleHits).toEqual([
      { rule: 'ask-commands', hits: 7, asked: 7 },
      { rule: 'read-only-command', hits: 2, asked: 0 },
      { rule: 'builtin-read', hits: 1, asked: 0 },
    ]);
  });

  it.each<[string, AuditRecord[], number]>([
    ['exactly 1000 ms is not a rubber stamp', asked('x', { waitMs: 1000 }), 0],
    ['999 ms is', asked('x', { waitMs: 999 }), 1],
    ['an approval without a wait is not counted as fast', asked('x'), 0],
    ['a rejection in 10 ms is no approval at all', asked('x', { waitMs: 10, outcome: 'rejected' }), 0],
  ])('rubber stamps: %s', (_name, records, expected) => {
    expect(auditStats(records).rubberStampRate).toBe(expected);
  });

  it('the same arguments in another session are no repeat', () => {
    const records = [...asked('a', { sessionId: 's1' }), ...asked('b', { sessionId: 's2' })];
    expect(auditStats(records).repeatRate).toBe(0);
  });
});
