import type { AuditRecord, AuditStats } from '../protocol/audit';

/**
 * Summarises audit records. Definitions:
 * - `total`: every record given. `outcomes`: records with an `outcome` (one per finished call);
 *   `byOutcome` and `byApprover` count those, so a call's decision line is not counted twice.
 * - Rates are over `humanDecisions`, the outcome records whose approver is `human`:
 *   approve = outcome `executed` without `editedArgs` (approve and approve-all),
 *   edit = `editedArgs` present (whatever happened next), reject = outcome `rejected` without
 *   `editedArgs`. The three are exclusive.
 *   Skips, cancels and errors after approval are in the denominator only, so the three rates
 *   may sum to less than 1. With no human decisions every rate is 0.
 * - Waits: one `waitMs` per request (the largest seen on its lines, so a wait written on both
 *   the decision and the outcome line counts once); median and p95 (nearest rank), or null.
 */
export function auditStats(records: readonly AuditRecord[]): AuditStats {
  const byOutcome: AuditStats['byOutcome'] = {};
  const byApprover: AuditStats['byApprover'] = {};
  let outcomes = 0;
  let human = 0;
  let approved = 0;
  let rejected = 0;
  let edited = 0;
  const waits = new Map<string, number>();

  records.forEach((record, index) => {
    if (typeof record.waitMs === 'number' && Number.isFinite(record.waitMs)) {
      const key = record.requestId ?? `#${index}`;
      waits.set(key, Math.max(waits.get(key) ?? 0, record.waitMs));
    }
    if (record.outcome === undefined) return;
    outcomes++;
    byOutcome[record.outcome] = (byOutcome[record.outcome] ?? 0) + 1;
    byApprover[record.approver] = (byApprover[record.approver] ?? 0) + 1;
    if (record.approver !== 'human') return;
    human++;
    if (record.editedArgs !== undefined) edited++;
    else if (record.outcome === 'executed') approved++;
    else if (record.outcome === 'rejected') rejected++;
  });

  const rate = (n: number): number => (human === 0 ? 0 : n / human);
  const sorted = [...waits.values()].sort((a, b) => a - b);
  return {
    total: records.length,
    outcomes,
    humanDecisions: human,
    byOutcome,
    byApprover,
    approveRate: rate(approved),
    rejectRate: rate(rejected),
    editRate: rate(edited),
    waitMedianMs: percentile(sorted, 50),
    waitP95Ms: percentile(sorted, 95),
  };
}

/** Nearest-rank percentile of an ascending list; null when empty. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? null;
}
