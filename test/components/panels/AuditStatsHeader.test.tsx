import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { AuditStatsHeader } from '../../../components/panels/AuditStatsHeader';
import { auditStats } from '../../../src/audit/stats';
import { record } from '../../audit/helpers';

// Issue 14 §6: the audit browser's stats header shows the approval metrics.

describe('AuditStatsHeader', () => {
  it('shows timeouts, repeats, rubber stamps and the rule hits', () => {
    const stats = auditStats([
      record({ requestId: 'a', phase: 'decision', outcome: undefined, waitMs: 300 }),
      record({ requestId: 'a', waitMs: 300 }),
      record({ requestId: 'b', argsHash: 'other', phase: 'decision', outcome: undefined, waitMs: 3000 }),
      record({ requestId: 'b', argsHash: 'other', waitMs: 3000 }),
      record({ requestId: 'c', argsHash: 'third', outcome: 'timeout', approver: 'none' }),
    ]);
    const { lastFrame } = render(<AuditStatsHeader stats={stats} />);
    const frame = lastFrame() ?? '';
    expect(frame).toContain(
      'asked 3 · timeouts 33% · repeats 0% · rubber stamps (<1s) 50% · rules: ask-commands 2/2',
    );
    expect(frame).toContain('approve 100%');
  });

  it('a core without the metrics shows the two lines it had', () => {
    const { total, byOutcome, byApprover, approveRate, rejectRate, editRate, waitMedianMs, waitP95Ms } =
      auditStats([]);
    const { lastFrame } = render(
      <AuditStatsHeader
        stats={{ total, byOutcome, byApprover, approveRate, rejectRate, editRate, waitMedianMs, waitP95Ms }}
      />,
    );
    expect(lastFrame()).not.toContain('rubber stamps');
  });

  it("with the log exported, this session's counts: sent, failed, dropped, the last error", () => {
    const stats = auditStats([record()]);
    const exported = {
      endpoint: 'http://collector.example:4318/v1/logs',
      from: 'OTEL_EXPORTER_OTLP_ENDPOINT',
      sent: 12,
      failed: 3,
      dropped: 0,
      pending: 2,
      lastError: 'connect ECONNREFUSED',
    };
    const { lastFrame } = render(<AuditStatsHeader stats={stats} exported={exported} />);
    expect(lastFrame()).toContain(
      'export → http://collector.example:4318/v1/logs: 12 sent · 3 failed · 0 dropped · 2 on the way · las',
    );
    expect(render(<AuditStatsHeader stats={stats} />).lastFrame()).not.toContain('export');
  });
});
