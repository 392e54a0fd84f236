import type { AuditRecord, AuditStats } from '../protocol/audit';

/** An approval given faster than this counts as a rubber stamp. */
export const RUBBER_STAMP_MS = 1000;

/**
 * Summarises audit records: the approval metrics a study of people approving agents asks for.
 * Definitions:
 * - `total`: every record given. `outcomes`: records with an `outcome` (one per finished call);
 *   `byOutcome` and `byApprover` count those, so a call's decision line is not counted twice.
 * - Rates are over `humanDecisions`, the outcome records whose approver is `human` (a person's own
 *   act — `origin: person`, e.g. a `!command` or an accepted suggestion — is no decision on an agent's call):
 *   approve = outcome `executed` without `editedArgs` (approve and approve-all),
 *   edit = `editedArgs` present (whatever happened next), reject = outcome `rejected` without
 *   `editedArgs`. The three are exclusive.
 *   Skips, cancels and errors after approval are in the denominator only, so the three rates
 *   may sum to less than 1. With no human decisions every rate is 0.
 * - Waits: one `waitMs` per request (the largest seen on its lines, so a wait written on both
 *   the decision and the outcome line counts once); median and p95 (nearest rank), or null.
 * - `asked`: distinct request ids (each a card a person saw). `timeoutRate`: of those, the ones
 *   whose outcome is `timeout`.
 * - `repeatRate`: requests for a call (same session, tool and argument hash) already requested
 *   before, plus calls the gate answered `repeat_rejected` without asking, over both.
 * - `rubberStampRate`: approvals (as above) whose request waited under one second, over approvals.
 * - `ruleHits`: decision lines (one per call) by rule, most first (ties by name); `asked`: of them,
 *   the decision `ask`.
 * Contract: pure; never throws for records read from the log.
 */
export function auditStats(records: readonly AuditRecord[]): AuditStats {
  // No prototype: an outcome or approver a tampered line names `constructor` or `__proto__` is
  // counted as itself, not added to a function's text or set as the prototype (red-team finding).
  const byOutcome: AuditStats['byOutcome'] = Object.create(null);
  const byApprover: AuditStats['byApprover'] = Object.create(null);
  let outcomes = 0;
  let human = 0;
  let edited = 0;
  let rejected = 0;
  const approvals: { requestId?: string; waitMs?: number }[] = [];
  const waits = new Map<string, number>();
  const requests = new Set<string>();
  let timeouts = 0;
  const seenCalls = new Set<string>();
  let requested = 0;
  let repeats = 0;
  let gateRepeats = 0;
  const rules = new Map<string, { hits: number; asked: number }>();

  records.forEach((record, index) => {
    if (typeof record.waitMs === 'number' && Number.isFinite(record.waitMs)) {
      const key = record.requestId ?? `#${index}`;
      waits.set(key, Math.max(waits.get(key) ?? 0, record.waitMs));
    }
    const own = record.origin === 'person';
    if (record.requestId && !requests.has(record.requestId)) {
      requests.add(record.requestId);
      requested++;
      const call = `${record.sessionId}\u0000${record.tool}\u0000${record.argsHash}`;
      if (seenCalls.has(call)) repeats++;
      seenCalls.add(call);
    }
    if (record.phase === 'decision' && !own) {
      const hit = rules.get(record.rule) ?? { hits: 0, asked: 0 };
      hit.hits++;
      if (record.decision === 'ask' || record.requestId !== undefined) hit.asked++;
      rules.set(record.rule, hit);
    }
    if (record.outcome === undefined) return;
    outcomes++;
    byOutcome[record.outcome] = (byOutcome[record.outcome] ?? 0) + 1;
    byApprover[record.approver] = (byApprover[record.approver] ?? 0) + 1;
    if (record.outcome === 'timeout' && record.requestId) timeouts++;
    if (record.outcome === 'rejected' && record.reason?.startsWith('repeat_rejected')) gateRepeats++;
    if (record.approver !== 'human' || own) return;
    human++;
    if (record.editedArgs !== undefined) edited++;
    else if (record.outcome === 'executed')
      approvals.push({
        ...(record.requestId ? { requestId: record.requestId } : {}),
        ...(record.waitMs !== undefined ? { waitMs: record.waitMs } : {}),
      });
    else if (record.outcome === 'rejected') rejected++;
  });

  const rate = (n: number): number => (human === 0 ? 0 : n / human);
  const share = (n: number, of: number): number => (of === 0 ? 0 : n / of);
  const sorted = [...waits.values()].sort((a, b) => a - b);
  const fast = approvals.filter((a) => {
    const wait = a.requestId !== undefined ? waits.get(a.requestId) : a.waitMs;
    return wait !== undefined && wait < RUBBER_STAMP_MS;
  }).length;
  return {
    total: records.length,
    outcomes,
    humanDecisions: human,
    byOutcome,
    byApprover,
    approveRate: rate(approvals.length),
    rejectRate: rate(rejected),
    editRate: rate(edited),
    waitMedianMs: percentile(sorted, 50),
    waitP95Ms: percentile(sorted, 95),
    asked: requested,
    timeoutRate: share(timeouts, requested),
    repeatRate: share(repeats + gateRepeats, requested + gateRepeats),
    rubberStampRate: share(fast, approvals.length),
    ruleHits: [...rules.entries()]
      .map(([rule, hit]) => ({ rule, ...hit }))
      .sort((a, b) => b.hits - a.hits || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)),
  };
}

/** Nearest-rank percentile of an ascending list; null when empty. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? null;
}
