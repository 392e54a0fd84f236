import type { AuditRecord } from '../../src/protocol/audit';

/** The record fields the audit browser filters on, each cycled with its own key. */
export type FilterField = 'tool' | 'outcome' | 'approver' | 'agent';
export type AuditFilters = Partial<Record<FilterField, string>>;

const fieldOf = (record: AuditRecord, field: FilterField): string | undefined =>
  field === 'agent' ? record.agentId : record[field];

/** The values of each filter field seen in a day so far, sorted, for cycling. */
export type SeenValues = Record<FilterField, string[]>;

const FIELDS: readonly FilterField[] = ['tool', 'outcome', 'approver', 'agent'];

/**
 * `seen` plus the values in `records`. The browser loads pages already filtered by the core, so a
 * filter cycles through every value the day has shown, not only those the current filters left.
 */
export function mergeSeen(seen: SeenValues | undefined, records: readonly AuditRecord[]): SeenValues {
  const out = {} as SeenValues;
  for (const field of FIELDS) {
    const values = new Set(seen?.[field]);
    for (const r of records) {
      const v = fieldOf(r, field);
      if (v) values.add(v);
    }
    out[field] = [...values].sort();
  }
  return out;
}

/** none → first value → … → last value → none. */
export function cycle(current: string | undefined, values: string[]): string | undefined {
  if (values.length === 0) return undefined;
  if (current === undefined) return values[0];
  const i = values.indexOf(current);
  return i === -1 || i === values.length - 1 ? undefined : values[i + 1];
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
