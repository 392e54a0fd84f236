import { Text } from 'ink';
import type { ReactNode } from 'react';
import type { AuditStats } from '../../src/protocol/audit';
import type { AuditExportState } from '../../src/protocol/state';
import { useTheme } from '../look/use-theme';
import { formatDurationCompact } from '../../src/text/duration';
import { percent } from '../look/format';

const counts = (byKey: Partial<Record<string, number>>): string =>
  Object.entries(byKey)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(' · ') || 'none';

/** The rule hit distribution, most first: `ask-commands 12/12` (calls / asked). */
const ruleHits = (hits: NonNullable<AuditStats['ruleHits']>): string =>
  hits
    .slice(0, 5)
    .map((h) => `${h.rule} ${h.hits}/${h.asked}`)
    .join(' · ') || 'none';

/** The export's line: where to, and what this session sent, failed to send and dropped. */
function ExportLine({ exported }: { exported: AuditExportState }): ReactNode {
  const theme = useTheme();
  const trouble = exported.failed > 0 || exported.dropped > 0;
  return (
    <Text wrap="truncate-end" color={trouble ? theme.error : undefined}>
      export → {exported.endpoint}: {exported.sent} sent · {exported.failed} failed · {exported.dropped}{' '}
      dropped
      {exported.pending > 0 ? ` · ${exported.pending} on the way` : ''}
      {exported.lastError ? ` · last error: ${exported.lastError}` : ''}
    </Text>
  );
}

/**
 * The day's AuditStats, as the core computed them: counts, human decision rates, waits; and, when the
 * log is exported, this session's export counts.
 */
export function AuditStatsHeader({
  stats,
  exported,
}: {
  stats: AuditStats | undefined;
  exported?: AuditExportState | undefined;
}): ReactNode {
  if (!stats) return <Text dimColor>loading…</Text>;
  return (
    <>
      {exported ? <ExportLine exported={exported} /> : null}
      <Text wrap="truncate-end">
        <Text bold>{stats.total} records</Text> · outcomes: {counts(stats.byOutcome)}
      </Text>
      <Text wrap="truncate-end">
        approvers: {counts(stats.byApprover)} · approve {percent(stats.approveRate)} · reject{' '}
        {percent(stats.rejectRate)} · edit {percent(stats.editRate)} · wait median{' '}
        {formatDurationCompact(stats.waitMedianMs)} · p95 {formatDurationCompact(stats.waitP95Ms)}
      </Text>
      {stats.asked !== undefined ? (
        <Text wrap="truncate-end">
          asked {stats.asked} · timeouts {percent(stats.timeoutRate ?? 0)} · repeats{' '}
          {percent(stats.repeatRate ?? 0)} · rubber stamps {'(<1s)'} {percent(stats.rubberStampRate ?? 0)} ·
          rules: {ruleHits(stats.ruleHits ?? [])}
        </Text>
      ) : null}
    </>
  );
}
