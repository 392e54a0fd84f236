import type { AuditStats } from '../protocol/audit';
import { sanitizeText } from '../text/sanitize';

const pct = (rate: number | undefined): string => `${Math.round((rate ?? 0) * 1000) / 10}%`;
const secs = (ms: number | null): string => (ms === null ? '–' : `${(ms / 1000).toFixed(1)}s`);

/**
 * The approval metrics as aligned lines for `warden audit --stats`: decision rates,
 * waits, timeouts, repeats, rubber stamps and the rule hit distribution (the first `topRules`).
 * Rule ids come from policy files a stranger may have written: shown visibly, never raw.
 */
export function formatApprovalMetrics(stats: AuditStats, day: string, topRules = 10): string {
  const human = stats.humanDecisions ?? 0;
  const lines = [
    `Approval metrics for ${day} (${stats.total} records, ${stats.asked ?? 0} asked, ${human} decided by a person)`,
    `  approved       ${pct(stats.approveRate)}`,
    `  rejected       ${pct(stats.rejectRate)}`,
    `  edited         ${pct(stats.editRate)}`,
    `  wait           median ${secs(stats.waitMedianMs)} · p95 ${secs(stats.waitP95Ms)}`,
    `  timed out      ${pct(stats.timeoutRate)} of asked`,
    `  repeated       ${pct(stats.repeatRate)} of requests (the same call asked again)`,
    `  rubber stamps  ${pct(stats.rubberStampRate)} of approvals in under 1 s (a rule that asks too much?)`,
  ];
  const rules = stats.ruleHits ?? [];
  if (rules.length > 0) {
    lines.push('  rule hits      calls  asked');
    const width = Math.min(32, Math.max(...rules.slice(0, topRules).map((r) => r.rule.length)));
    for (const r of rules.slice(0, topRules)) {
      const name = sanitizeText(r.rule, 'exact').slice(0, width).padEnd(width);
      lines.push(`    ${name}  ${String(r.hits).padStart(5)}  ${String(r.asked).padStart(5)}`);
    }
    if (rules.length > topRules) lines.push(`    … and ${rules.length - topRules} more rules`);
  }
  return `${lines.join('\n')}\n`;
}
