import { sanitizeText } from '../text/sanitize';
import type { AuditRecord, AuditStats } from '../protocol/audit';

type Column = { title: string; width: number; cell: (r: AuditRecord) => unknown };

/**
 * A cell's value as text. A day file may hold lines warden did not write (another version, a
 * tampered file) whose fields are null, numbers or objects: the reader accepts any line with a
 * string ts, tool and agentId, and one such line made `warden audit` throw and print no table
 * (red-team finding). Shown as JSON instead.
 */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const COLUMNS: Column[] = [
  { title: 'TIME', width: 8, cell: (r) => r.ts.slice(11, 19) },
  { title: 'AGENT', width: 10, cell: (r) => r.agentId },
  { title: 'TOOL', width: 18, cell: (r) => r.tool },
  {
    title: 'DECISION',
    width: 15,
    cell: (r) =>
      r.outcome ? `${r.decision}→${r.outcome}` : r.phase === 'requested' ? 'requested' : r.decision,
  },
  { title: 'APPROVER', width: 8, cell: (r) => r.approver },
  { title: 'RULE', width: 18, cell: (r) => r.rule },
];

/**
 * Fits `text` to exactly `width` columns, cutting with `…`. Escape sequences, control, bidi and
 * invisible characters are shown visibly (`␛]0;…`, `⟨U+202E⟩`): records carry model-written
 * text, which must not drive the terminal.
 */
export function fit(text: string, width: number): string {
  const flat = sanitizeText(text.replace(/\s+/g, ' '), 'exact');
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat.padEnd(width);
}

/** One line saying what a call did: the command or path when there is one, else compact JSON. */
export function shortArgs(record: AuditRecord): string {
  const args = record.editedArgs ?? record.args;
  const obj = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : undefined;
  const main =
    obj && typeof obj.command === 'string'
      ? obj.command
      : obj && typeof obj.path === 'string'
        ? obj.path
        : undefined;
  const text = main ?? JSON.stringify(args) ?? '';
  const edited = record.editedArgs !== undefined ? '(edited) ' : '';
  const reason = record.reason ? ` — ${asText(record.reason)}` : '';
  return `${edited}${text}${reason}`;
}

/**
 * A fixed-width table, one record a row, the last column (args) taking what is left of `columns`;
 * no line is wider than `columns`. Times are UTC, like the day files.
 */
export function formatAuditTable(records: readonly AuditRecord[], columns = 120): string {
  const fixed = COLUMNS.reduce((sum, c) => sum + c.width + 2, 0);
  const argsWidth = Math.max(20, columns - fixed);
  const row = (cells: unknown[], last: string): string => {
    const line =
      `${cells.map((c, i) => fit(asText(c), COLUMNS[i]?.width ?? 0)).join('  ')}  ${fit(last, argsWidth)}`.trimEnd();
    return line.length > columns ? `${line.slice(0, columns - 1)}…` : line;
  };
  const lines = [
    row(
      COLUMNS.map((c) => c.title),
      'ARGS',
    ),
  ];
  for (const r of records)
    lines.push(
      row(
        COLUMNS.map((c) => c.cell(r)),
        shortArgs(r),
      ),
    );
  return `${lines.join('\n')}\n`;
}

const percent = (rate: number): string => `${Math.round(rate * 100)}%`;
const seconds = (ms: number | null): string => (ms === null ? '–' : `${(ms / 1000).toFixed(1)}s`);

/** A one-line summary under the table: counts by outcome, human decision rates, waits. */
export function formatAuditSummary(stats: AuditStats): string {
  const parts = [`${stats.total} record${stats.total === 1 ? '' : 's'}`];
  // An outcome is warden's own word, but a tampered day file may hold anything there: shown visibly.
  const outcomes = Object.entries(stats.byOutcome).map(([k, n]) => `${sanitizeText(k, 'exact')} ${n}`);
  if (outcomes.length > 0) parts.push(outcomes.join(', '));
  if ((stats.humanDecisions ?? 0) > 0) {
    parts.push(
      `by people (${stats.humanDecisions}): approved ${percent(stats.approveRate)}, rejected ${percent(stats.rejectRate)}, edited ${percent(stats.editRate)}`,
    );
  }
  if (stats.waitMedianMs !== null)
    parts.push(`wait median ${seconds(stats.waitMedianMs)}, p95 ${seconds(stats.waitP95Ms)}`);
  return `${parts.join(' · ')}\n`;
}
