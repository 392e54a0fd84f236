import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRepairMarker } from './tail-repair';
import type { AuditQuery, AuditRecord } from '../protocol/audit';
import { AUDIT_FILE_PATTERN, auditFileName } from './day-file';

/**
 * The days that have an audit file in `dir`, oldest first, as `YYYY-MM-DD`.
 * Contract: never throws; a missing or unreadable folder has no days.
 */
export function listAuditDays(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((name) => AUDIT_FILE_PATTERN.exec(name)?.[1])
    .filter((day): day is string => day !== undefined)
    .sort();
}

/** Lines of the scanned files that hold no record; reported, never silently dropped. */
export type UnreadableLines = {
  count: number;
  /** Of those, lines cut short by a failed write: closed by a later repair marker, or a file's last line without a newline. */
  torn: number;
  /** Where they are: file name and 1-based line numbers (the first 20 in all). */
  at: { file: string; lines: number[] }[];
};

export type AuditScan = { records: AuditRecord[]; unreadable: UnreadableLines };

const MAX_LOCATIONS = 20;

/**
 * Reads the records of the days `query.from..query.to` (inclusive; both default to today, UTC;
 * with only `from`, up to today) in file order, keeps those matching every filter, and returns the
 * latest `limit`. `text` is a case-insensitive search over the raw JSON line; `tool` ending in `*`
 * matches a prefix (`mcp__github__*`). Lines that are not records (torn, corrupt) are counted in
 * `unreadable`, whatever the filters; repair markers (tail-repair.ts) are neither.
 * Contract: never throws; an unreadable file has no lines.
 */
export function scanAudit(dir: string, query: AuditQuery = {}, now: Date = new Date()): AuditScan {
  const today = now.toISOString().slice(0, 10);
  const from = query.from ?? query.to ?? today;
  const to = query.to ?? today;
  const days = listAuditDays(dir).filter((day) => day >= from && day <= to);
  const matches = compileFilter(query);
  const records: AuditRecord[] = [];
  const unreadable: UnreadableLines = { count: 0, torn: 0, at: [] };
  let shown = 0;
  for (const day of days) {
    const file = auditFileName(day);
    const { lines, openEnd } = readLines(join(dir, file));
    const bad: number[] = [];
    lines.forEach((line, i) => {
      const parsed = parseLine(line);
      if (parsed.kind === 'record') {
        if (matches(parsed.record, line)) records.push(parsed.record);
        return;
      }
      if (parsed.kind !== 'unreadable') return;
      unreadable.count += 1;
      // Torn: a repair marker follows, or it is the file's last line and has no newline.
      const next = lines[i + 1];
      if ((next !== undefined && parseLine(next).kind === 'repair') || (openEnd && i === lines.length - 1))
        unreadable.torn += 1;
      if (shown < MAX_LOCATIONS) {
        bad.push(i + 1);
        shown += 1;
      }
    });
    if (bad.length > 0) unreadable.at.push({ file, lines: bad });
  }
  const limit = query.limit;
  const latest =
    limit !== undefined && limit >= 0 && records.length > limit
      ? records.slice(records.length - limit)
      : records;
  return { records: latest, unreadable };
}

/** The records of `scanAudit`, without the count of unreadable lines. Contract: never throws. */
export function readAudit(dir: string, query: AuditQuery = {}, now: Date = new Date()): AuditRecord[] {
  return scanAudit(dir, query, now).records;
}

/** One sentence about unreadable lines, for people; empty when there are none. */
export function describeUnreadable(u: UnreadableLines): string {
  if (u.count === 0) return '';
  const where = u.at
    .map((a) => `${a.file} line${a.lines.length === 1 ? '' : 's'} ${a.lines.join(', ')}`)
    .join('; ');
  const more = u.count > u.at.reduce((n, a) => n + a.lines.length, 0) ? ', …' : '';
  const torn = u.torn > 0 ? ` (${u.torn} cut short by a failed write)` : '';
  return `${u.count} unreadable audit line${u.count === 1 ? '' : 's'}${torn}, not shown: ${where}${more}.`;
}

/** The file's lines (a trailing newline makes no empty last line); `openEnd` when the last has no newline. */
function readLines(path: string): { lines: string[]; openEnd: boolean } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { lines: [], openEnd: false };
  }
  const lines = text.split('\n');
  const openEnd = lines.at(-1) !== '';
  if (!openEnd) lines.pop();
  return { lines, openEnd };
}

/** What one audit line holds. */
export type Parsed =
  | { kind: 'record'; record: AuditRecord }
  | { kind: 'repair' }
  | { kind: 'blank' }
  | { kind: 'unreadable' };

/** A line is a record when it parses to an object with the fields every reader relies on. */
export function parseLine(line: string): Parsed {
  if (line.trim() === '') return { kind: 'blank' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'unreadable' };
  }
  if (isRepairMarker(value)) return { kind: 'repair' };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'unreadable' };
  const r = value as Record<string, unknown>;
  const ok = typeof r.ts === 'string' && typeof r.tool === 'string' && typeof r.agentId === 'string';
  if (!ok) return { kind: 'unreadable' };
  normaliseFields(r);
  return { kind: 'record', record: value as AuditRecord };
}

/** Fields every record has as text; the renderers (table, browser, sidebar) call string methods on them. */
const REQUIRED_TEXT = ['sessionId', 'taskId', 'argsHash', 'decision', 'approver', 'phase', 'rule', 'risk'];
const OPTIONAL_TEXT = ['requestId', 'agentName', 'outcome', 'reason', 'result', 'origin', 'resumedFrom'];
const NUMBERS = ['waitMs', 'durationMs'];

/**
 * Makes a parsed line's fields the types an AuditRecord promises. A day file may hold lines warden
 * did not write (another version, a tampered file): `"approver": null` or `"rule": {}` made
 * `warden audit` throw and print nothing (red-team finding). Text fields of another type become
 * their JSON, a missing one empty; a number that is not one is dropped. Mutates `r` (fresh from
 * JSON.parse); a record warden wrote passes unchanged.
 */
function normaliseFields(r: Record<string, unknown>): void {
  for (const key of REQUIRED_TEXT) if (typeof r[key] !== 'string') r[key] = asText(r[key]);
  for (const key of OPTIONAL_TEXT)
    if (r[key] !== undefined && typeof r[key] !== 'string') r[key] = asText(r[key]);
  for (const key of NUMBERS)
    if (r[key] !== undefined && (typeof r[key] !== 'number' || !Number.isFinite(r[key]))) delete r[key];
}

const asText = (v: unknown): string => (v === undefined || v === null ? '' : JSON.stringify(v));

/** The query's filters as one predicate over a record and its raw line. */
export function compileFilter(query: AuditQuery): (record: AuditRecord, line: string) => boolean {
  const text = query.text?.toLowerCase();
  const tool = query.tool;
  const toolPrefix = tool?.endsWith('*') ? tool.slice(0, -1) : undefined;
  return (record, line) =>
    (tool === undefined ||
      (toolPrefix !== undefined ? record.tool.startsWith(toolPrefix) : record.tool === tool)) &&
    (query.outcome === undefined || record.outcome === query.outcome) &&
    (query.approver === undefined || record.approver === query.approver) &&
    (query.agent === undefined || record.agentId === query.agent) &&
    (text === undefined || text === '' || line.toLowerCase().includes(text));
}
