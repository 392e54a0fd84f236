import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTemp, record, runCli, writeDays } from './helpers';

// `warden audit --stats` (issue 14 §6): the approval metrics of a day, as text or one JSON object.

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = makeTemp());
});
afterEach(() => cleanup());

const NOW = new Date('2025-01-03T12:00:00Z');

const run = (argv: string[]) => runCli(dir, argv, { now: NOW });

function seed(): void {
  writeDays(dir, {
    '2025-01-03': [
      record({ requestId: 'a', phase: 'decision', outcome: undefined, waitMs: 500 }),
      record({ requestId: 'a', outcome: 'executed', waitMs: 500 }),
      record({ requestId: 'b', phase: 'decision', outcome: undefined, waitMs: 4000 }),
      record({ requestId: 'b', outcome: 'rejected', waitMs: 4000 }),
      record({
        phase: 'decision',
        outcome: undefined,
        approver: 'policy',
        decision: 'allow',
        rule: 'read\u001b[2Jonly',
      }),
      record({ outcome: 'executed', approver: 'policy', decision: 'allow', rule: 'read\u001b[2Jonly' }),
    ].map((r) => ({ ...r, ts: '2025-01-03T09:00:00.000Z' })),
  });
}

describe('warden audit --stats', () => {
  it('prints every metric, one per line', () => {
    seed();
    const { code, out, err } = run(['--stats']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out.split('\n')).toEqual([
      'Approval metrics for 2025-01-03 (6 records, 2 asked, 2 decided by a person)',
      '  approved       50%',
      '  rejected       50%',
      '  edited         0%',
      '  wait           median 0.5s · p95 4.0s',
      '  timed out      0% of asked',
      '  repeated       50% of requests (the same call asked again)',
      '  rubber stamps  100% of approvals in under 1 s (a rule that asks too much?)',
      '  rule hits      calls  asked',
      '    ask-commands      2      2',
      '    read␛[2Jonly      1      0',
      '',
    ]);
    // No raw escape from a rule id reaches the terminal.
    expect(out).not.toContain('\u001b');
  });

  it('--stats --json prints one JSON object', () => {
    seed();
    const { out } = run(['--stats', '--json']);
    const stats = JSON.parse(out);
    expect(stats).toMatchObject({ asked: 2, approveRate: 0.5, rubberStampRate: 1, repeatRate: 0.5 });
    expect(stats.ruleHits[0]).toEqual({ rule: 'ask-commands', hits: 2, asked: 2 });
  });

  it('--stats=x is refused; the help names --stats', () => {
    expect(run(['--stats=1']).code).toBe(2);
    expect(run(['--help']).out).toContain('--stats');
  });

  it('a day without records still prints the metrics, all zero', () => {
    const { code, out } = run(['--stats', '--date', '2025-01-02']);
    expect(code).toBe(0);
    expect(out).toContain('Approval metrics for 2025-01-02 (0 records, 0 asked, 0 decided by a person)');
    expect(out).toContain('rubber stamps  0%');
  });
});
