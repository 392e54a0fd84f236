import { join } from 'node:path';
import type { AuditCursor, AuditQuery, AuditRecord } from '../protocol/audit';
import { compileFilter, listAuditDays, parseLine } from './reader';
import { prefilterNeedle, type RgLine, rgMatchingLines } from './audit-rg';
import { readLinesBackward } from './tail-reader';
import { auditFileName } from './day-file';

/** One page of records, newest first, and where the next (older) page starts. */
export type AuditPage = {
  records: AuditRecord[];
  /** Absent when nothing older is left in the query's days. */
  before?: AuditCursor;
  /** Lines in the part read that hold no record (torn, corrupt). */
  unreadable: number;
};

export type AuditPageOptions = {
  /** Records per page. */
  limit: number;
  /** Continue below this point (a previous page's `before`). */
  before?: AuditCursor;
  signal?: AbortSignal;
  now?: Date;
  /** Bytes read backwards in-process before a search hands the rest of a day to ripgrep. */
  scanBudgetBytes?: number;
};

const SCAN_BUDGET = 1024 * 1024;

/**
 * The newest `limit` records matching `query` in its days (default today, UTC), newest first,
 * reading each day's file from its end: opening a day of 200 000 records reads one chunk. A search
 * (text or a filter) that the last few MB cannot fill hands the rest of the day to ripgrep, which
 * returns only the matching lines with their byte offsets; without ripgrep the scan goes on in
 * process. Each page says where the next starts, so older records load only when asked for.
 * Contract: never rejects; unreadable files have no records; an aborted query resolves what it has.
 */
export async function queryAuditPage(
  dir: string,
  query: AuditQuery,
  options: AuditPageOptions,
): Promise<AuditPage> {
  const page = new PageCollector(query, options.limit);
  const days = daysBelow(dir, query, options);
  for (const [i, day] of days.entries()) {
    const path = join(dir, auditFileName(day));
    const end = options.before?.day === day ? options.before.offset : undefined;
    const budget = page.needle === undefined ? undefined : (options.scanBudgetBytes ?? SCAN_BUDGET);
    let stoppedAt = page.scan(path, end, budget);
    if (!page.full() && stoppedAt > 0 && page.needle !== undefined && !options.signal?.aborted) {
      const lines = await rgMatchingLines(path, page.needle, stoppedAt, options.signal);
      stoppedAt = lines === undefined ? page.scan(path, stoppedAt) : page.takeNewest(lines);
    }
    if (page.full() || options.signal?.aborted) return page.result(day, stoppedAt, days[i + 1]);
  }
  return page.result();
}

/**
 * The same page read in process only, synchronously: for `warden audit --limit N`, where the
 * newest records are one chunk away and a rare search may read the whole day.
 * Contract: never throws.
 */
export function readAuditPageSync(dir: string, query: AuditQuery, options: AuditPageOptions): AuditPage {
  const page = new PageCollector(query, options.limit);
  const days = daysBelow(dir, query, options);
  for (const [i, day] of days.entries()) {
    const end = options.before?.day === day ? options.before.offset : undefined;
    const stoppedAt = page.scan(join(dir, auditFileName(day)), end);
    if (page.full()) return page.result(day, stoppedAt, days[i + 1]);
  }
  return page.result();
}

/** The query's days, newest first, from the cursor's day down. */
function daysBelow(dir: string, query: AuditQuery, options: AuditPageOptions): string[] {
  const today = (options.now ?? new Date()).toISOString().slice(0, 10);
  const from = query.from ?? query.to ?? today;
  const to = query.to ?? today;
  return listAuditDays(dir)
    .filter((day) => day >= from && day <= to && (options.before === undefined || day <= options.before.day))
    .reverse();
}

/** Collects one page: the prefilter literal, the full filter, and the count of unreadable lines. */
class PageCollector {
  readonly needle: string | undefined;
  private readonly needleTest: ((text: string) => boolean) | undefined;
  private readonly matches: (record: AuditRecord, line: string) => boolean;
  private readonly records: AuditRecord[] = [];
  private unreadable = 0;

  constructor(
    query: AuditQuery,
    private readonly limit: number,
  ) {
    this.needle = prefilterNeedle(query);
    this.needleTest = this.needle === undefined ? undefined : literalTest(this.needle);
    this.matches = compileFilter(query);
  }

  full(): boolean {
    return this.records.length >= this.limit;
  }

  /** Reads `path` backwards below `end`; returns where it stopped (0: the file's start). */
  scan(path: string, end: number | undefined, budgetBytes?: number): number {
    return readLinesBackward(path, ({ text }) => (this.accept(text) && this.full() ? 'stop' : 'more'), {
      end,
      budgetBytes,
    });
  }

  /** Takes ripgrep's lines (file order) newest first; returns the start of the last one taken, or 0. */
  takeNewest(lines: RgLine[]): number {
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i];
      if (line && this.accept(line.text) && this.full()) return line.start;
    }
    return 0;
  }

  result(day?: string, stoppedAt = 0, olderDay?: string): AuditPage {
    const before =
      day !== undefined && stoppedAt > 0
        ? { day, offset: stoppedAt }
        : olderDay !== undefined
          ? { day: olderDay, offset: Number.MAX_SAFE_INTEGER }
          : undefined;
    return { records: this.records, unreadable: this.unreadable, ...(before ? { before } : {}) };
  }

  private accept(text: string): boolean {
    if (this.needleTest && !this.needleTest(text)) return false;
    const parsed = parseLine(text);
    if (parsed.kind === 'unreadable') this.unreadable += 1;
    if (parsed.kind !== 'record' || !this.matches(parsed.record, text)) return false;
    this.records.push(parsed.record);
    return true;
  }
}

/** A case-insensitive literal test over a raw line (the same meaning as ripgrep's -F -i). */
function literalTest(needle: string): (text: string) => boolean {
  const re = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'iu');
  return (text) => re.test(text);
}
