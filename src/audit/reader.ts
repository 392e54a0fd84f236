import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditQuery, AuditRecord } from './types';
import { AUDIT_FILE_PATTERN, auditFileName } from './writer';

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

/**
 * Reads the records of the days `query.from..query.to` (inclusive; both default to today, UTC;
 * with only `from`, up to today) in file order, keeps those matching every filter, and returns the
 * latest `limit`. `text` is a case-insensitive search over the raw JSON line; `tool` ending in `*`
 * matches a prefix (`mcp__github__*`).
 * Contract: never throws; a torn last line, a corrupt line or an unreadable file is skipped.
 */
export function readAudit(dir: string, query: AuditQuery = {}, now: Date = new Date()): AuditRecord[] {
  const today = now.toISOString().slice(0, 10);
  const from = query.from ?? query.to ?? today;
  const to = query.to ?? today;
  const days = listAuditDays(dir).filter((day) => day >= from && day <= to);
  const matches = compileFilter(query);
  const out: AuditRecord[] = [];
  for (const day of days) {
    for (const line of readLines(join(dir, auditFileName(day)))) {
      const record = parseLine(line);
      if (record && matches(record, line)) out.push(record);
    }
  }
  const limit = query.limit;
  return limit !== undefined && limit >= 0 && out.length > limit ? out.slice(out.length - limit) : out;
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n');
  } catch {
    return [];
  }
}

/** A line is a record when it parses to an object with the fields every reader relies on. */
function parseLine(line: string): AuditRecord | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  const ok = typeof r.ts === 'string' && typeof r.tool === 'string' && typeof r.agentId === 'string';
  return ok ? (value as AuditRecord) : undefined;
}

function compileFilter(query: AuditQuery): (record: AuditRecord, line: string) => boolean {
  const text = query.text?.toLowerCase();
  const tool = query.tool;
  const toolPrefix = tool?.endsWith('*') ? tool.slice(0, -1) : undefined;
  return (record, line) =>
    (tool === undefined || (toolPrefix !== undefined ? record.tool.startsWith(toolPrefix) : record.tool === tool)) &&
    (query.outcome === undefined || record.outcome === query.outcome) &&
    (query.approver === undefined || record.approver === query.approver) &&
    (query.agent === undefined || record.agentId === query.agent) &&
    (text === undefined || text === '' || line.toLowerCase().includes(text));
}
