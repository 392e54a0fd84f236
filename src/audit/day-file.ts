/** The audit log's day files: one `audit-YYYY-MM-DD.jsonl` per UTC day, and the day a record belongs to. */

export const AUDIT_FILE_PATTERN = /^audit-(\d{4}-\d{2}-\d{2})\.jsonl$/;

/** `audit-YYYY-MM-DD.jsonl` for a day. */
export const auditFileName = (day: string): string => `audit-${day}.jsonl`;

/**
 * UTC day of an ISO timestamp, or of the time `fallback` gives (asked only then) when the timestamp
 * does not parse or falls outside years 0000–9999 (which would not make a `YYYY-MM-DD` file name).
 */
export function utcDay(ts: string, fallback: () => Date): string {
  // The gate's own timestamps are canonical UTC: their day is their first ten characters once that
  // date is known to be real (checked in full the first time; a day changes once a day).
  if (ts === lastTs) return lastTsDay;
  const canonical = CANONICAL_TS.exec(ts)?.[1];
  if (canonical !== undefined && canonical === lastCanonicalDay) {
    lastTs = ts;
    lastTsDay = canonical;
    return canonical;
  }
  const time = Date.parse(ts);
  const day = Number.isFinite(time) ? new Date(time).toISOString().slice(0, 10) : '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return fallback().toISOString().slice(0, 10);
  if (canonical === day) {
    lastCanonicalDay = day;
    // Lines of the same millisecond share their timestamp string: the next one skips the regex too.
    lastTs = ts;
    lastTsDay = day;
  }
  return day;
}

/** `YYYY-MM-DDTHH:MM:SS.mmmZ` with a valid time of day: only the date part can make it invalid. */
const CANONICAL_TS = /^(\d{4}-\d{2}-\d{2})T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
let lastCanonicalDay: string | undefined;
let lastTs: string | undefined;
let lastTsDay = '';
