import type { AuditRecord } from '../../src/protocol/audit';

/** The record fields the audit browser filters on, each cycled with its own key. */
export type FilterField = 'tool' | 'outcome' | 'approver' | 'agent';
export type AuditFilters = Partial<Record<FilterField, string>>;

const fieldOf = (record: AuditRecord, field: FilterField): string | undefined =>
  field === 'agent' ? record.agentId : record[field];

/** Distinct values of `field` in `records`, sorted, for cycling. */
export function valuesOf(records: AuditRecord[], field: FilterField): string[] {
  const values = new Set<string>();
  for (const r of records) {
    const v = fieldOf(r, field);
    if (v) values.add(v);
  }
  return [...values].sort();
}

/** none → first value → … → last value → none. */
export function cycle(current: string | undefined, values: string[]): string | undefined {
  if (values.length === 0) return undefined;
  if (current === undefined) return values[0];
  const i = values.indexOf(current);
  return i === -1 || i === values.length - 1 ? undefined : values[i + 1];
}

/** The searchable text of a record: every field, args included (already redacted). */
export function recordText(record: AuditRecord): string {
  return JSON.stringify(record).toLowerCase();
}

/** Records matching every set filter and containing `search` (case-insensitive). */
export function applyFilters(records: AuditRecord[], filters: AuditFilters, search: string): AuditRecord[] {
  const needle = search.trim().toLowerCase();
  const active = (Object.entries(filters) as [FilterField, string | undefined][]).filter(
    ([, v]) => v !== undefined,
  );
  return records.filter(
    (r) =>
      active.every(([field, value]) => fieldOf(r, field) === value) &&
      (!needle || recordText(r).includes(needle)),
  );
}

/** YYYY-MM-DD of a date in local time (the day a person means by "today"). */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The day `delta` days from `day`; calendar arithmetic in UTC so DST never skips a day. */
export function shiftDay(day: string, delta: number): string {
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + delta)).toISOString().slice(0, 10);
}
