import type { AuditRecord } from '../../src/protocol/audit';
import { formatDurationCompact } from '../../src/text/duration';
import { prettyJson } from '../../src/text/json';
import { fit, wrap } from '../../src/text/wrap';
import { clock } from '../look/format';

/** One row of the audit detail view; `tone` styles it (the words say it all without colour). */
export type DetailRow = { text: string; tone?: 'title' | 'warn' | 'dim' };

/** Side-by-side needs room for two readable JSON columns. */
export const SIDE_BY_SIDE_MIN = 90;

const json = (value: unknown): string => (value === undefined ? '(none)' : prettyJson(value));

/**
 * Every row of one audit record at `width`, nothing cut: the header lines, the reason and the result
 * wrapped whole, then args (and editedArgs beside them when wide, below them when narrow), each JSON
 * line wrapped to its column. The view scrolls over these rows.
 */
export function auditDetailRows(
  r: AuditRecord,
  width: number,
  agentName: (id: string) => string,
): DetailRow[] {
  const rows: DetailRow[] = [];
  const add = (text: string, tone?: DetailRow['tone']) => {
    for (const line of wrap(text, width)) rows.push(tone ? { text: line, tone } : { text: line });
  };
  add(
    `${r.tool} · ${clock(r.ts)} · agent ${agentName(r.agentId)} · task ${r.taskId} · ${r.phase} line`,
    'title',
  );
  add(
    `decision ${r.decision} · outcome ${r.outcome ?? '–'} · by ${r.approver} · rule ${r.rule} · risk ${r.risk} · wait ${formatDurationCompact(r.waitMs)} · ran ${formatDurationCompact(r.durationMs)}`,
  );
  if (r.reason) add(`reason: ${r.reason}`, 'warn');
  if (r.result) add(`result: ${r.result}`);
  add(`args hash ${r.argsHash}${r.requestId ? ` · request ${r.requestId}` : ''}`, 'dim');
  rows.push({ text: '' });
  const edited = r.editedArgs !== undefined;
  if (edited && width >= SIDE_BY_SIDE_MIN) {
    const col = Math.floor((width - 2) / 2);
    const left = wrap(json(r.args), col);
    const right = wrap(json(r.editedArgs), col);
    rows.push({ text: `${fit('args', col)}  editedArgs (as edited by a person)`, tone: 'title' });
    for (let i = 0; i < Math.max(left.length, right.length); i++)
      rows.push({ text: `${fit(left[i] ?? '', col)}  ${right[i] ?? ''}`.trimEnd() });
    return rows;
  }
  rows.push({ text: 'args', tone: 'title' });
  for (const line of wrap(json(r.args), width)) rows.push({ text: line });
  if (edited) {
    rows.push({ text: '' });
    rows.push({ text: 'editedArgs (as edited by a person)', tone: 'title' });
    for (const line of wrap(json(r.editedArgs), width)) rows.push({ text: line });
  }
  return rows;
}

/** The first row shown after a scroll by `delta` rows, kept so the last page stays full. */
export function scrollTo(offset: number, delta: number, total: number, visible: number): number {
  return Math.max(0, Math.min(offset + delta, Math.max(0, total - visible)));
}
