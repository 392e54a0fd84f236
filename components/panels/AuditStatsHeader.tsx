import { Text } from 'ink';
import type { ReactNode } from 'react';
import type { AuditStats } from '../../src/protocol/audit';
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

/** The day's AuditStats, as the core computed them: counts, human decision rates, waits. */
export function AuditStatsHeader({ stats }: { stats: AuditStats | undefined }): ReactNode {
  if (!stats) return <Text dimColor>loading…</Text>;
  return (
    <>
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
