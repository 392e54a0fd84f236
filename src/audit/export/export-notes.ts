/**
 * What the export did, kept beside the audit log for `warden audit --stats` (another process): one
 * line per note in `export-YYYY-MM-DD.jsonl`, each with a session's running counts. A session
 * writes one when its first failure of a run happens (so a warden killed later still left it) and
 * one when it stops. The day files themselves are never touched: a dead receiver changes no line.
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A session's counts so far. */
export type ExportCounts = {
  endpoint: string;
  sent: number;
  failed: number;
  dropped: number;
  lastError?: string;
  lastErrorAt?: string;
};

export type ExportNote = ExportCounts & { ts: string; sessionId: string };

/** The export's summary for a day: every session's latest counts added up. */
export type ExportDay = ExportCounts & { sessions: number };

const fileOf = (dir: string, day: string) => join(dir, `export-${day}.jsonl`);

/** Appends a note. Contract: never throws (a note that cannot be written is not the gate's problem). */
export function writeExportNote(dir: string, note: ExportNote): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    appendFileSync(fileOf(dir, note.ts.slice(0, 10)), `${JSON.stringify(note)}\n`, { mode: 0o600 });
  } catch {
    // The counts stay in /audit for this session.
  }
}

/** The day's export summary, undefined when no session exported that day. Contract: never throws. */
export function readExportDay(dir: string, day: string): ExportDay | undefined {
  let text: string;
  try {
    text = readFileSync(fileOf(dir, day), 'utf8');
  } catch {
    return undefined;
  }
  const latest = new Map<string, ExportNote>();
  for (const line of text.split('\n')) {
    const note = parseNote(line);
    if (note) latest.set(note.sessionId, note);
  }
  if (latest.size === 0) return undefined;
  const notes = [...latest.values()].sort((a, b) => a.ts.localeCompare(b.ts));
  const withError = notes.filter((n) => n.lastError).at(-1);
  return {
    sessions: notes.length,
    endpoint: [...new Set(notes.map((n) => n.endpoint))].join(', '),
    sent: sum(notes, 'sent'),
    failed: sum(notes, 'failed'),
    dropped: sum(notes, 'dropped'),
    ...(withError?.lastError ? { lastError: withError.lastError } : {}),
    ...(withError?.lastErrorAt ? { lastErrorAt: withError.lastErrorAt } : {}),
  };
}

const sum = (notes: ExportNote[], key: 'sent' | 'failed' | 'dropped') =>
  notes.reduce((n, note) => n + note[key], 0);

function parseNote(line: string): ExportNote | undefined {
  if (line.trim() === '') return undefined;
  try {
    const v = JSON.parse(line) as Partial<ExportNote>;
    const counts = [v.sent, v.failed, v.dropped].every((n) => typeof n === 'number' && Number.isFinite(n));
    if (typeof v.ts !== 'string' || typeof v.sessionId !== 'string' || !counts) return undefined;
    return {
      ts: v.ts,
      sessionId: v.sessionId,
      endpoint: typeof v.endpoint === 'string' ? v.endpoint : '',
      sent: v.sent as number,
      failed: v.failed as number,
      dropped: v.dropped as number,
      ...(typeof v.lastError === 'string' ? { lastError: v.lastError } : {}),
      ...(typeof v.lastErrorAt === 'string' ? { lastErrorAt: v.lastErrorAt } : {}),
    };
  } catch {
    return undefined;
  }
}

/** One line for people: `export to URL: 12 sent, 3 failed, 0 dropped (last error: …)`. */
export function exportLine(c: ExportCounts & { sessions?: number; pending?: number }): string {
  const pending = c.pending ? `, ${c.pending} on the way` : '';
  const sessions = c.sessions !== undefined && c.sessions > 1 ? ` over ${c.sessions} sessions` : '';
  const error = c.lastError ? ` (last error: ${c.lastError})` : '';
  return `export to ${c.endpoint}: ${c.sent} sent, ${c.failed} failed, ${c.dropped} dropped${pending}${sessions}${error}`;
}
