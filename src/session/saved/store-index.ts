import { mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactString } from '../../audit/redact';
import type { SessionSummary } from '../../protocol/index';
import { readRegularFile } from '../../policy/safe-read';

/** Session ids are warden's own UUIDs; anything else never becomes a path. */
const ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

/** Whether `id` can name a session file. */
export const isSessionId = (id: string): boolean => ID.test(id);

/** `$WARDEN_HOME/sessions`. */
export const sessionsDir = (home: string): string => join(home, 'sessions');

/** `$WARDEN_HOME/sessions/<id>.jsonl`, the append-only conversation. */
export const sessionFile = (home: string, id: string): string => join(sessionsDir(home), `${id}.jsonl`);

const indexDir = (home: string): string => join(sessionsDir(home), 'index');
/** An index entry is a title, a few dates and counts: far less than this. */
const INDEX_ENTRY_CAP = 64 * 1024;

/**
 * A prompt as a picker title: one line, at most 60 characters, redacted like the prompt's own
 * record (the index entry is a file under WARDEN_HOME too; a token typed into the first prompt was
 * kept there in the clear). Redacted before the cut, so a token the cut splits is not half kept.
 */
export function titleOf(prompt: string): string {
  const line = redactString(prompt).replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || '(empty prompt)';
}

/**
 * Writes one session's index entry, `sessions/index/<id>.json`: a file per session, replaced whole
 * (temp file + rename), so two wardens never lose each other's entries and a crash never leaves half.
 * Contract: throws on a failed write (the recorder reports it; the session goes on).
 */
export function writeIndexEntry(home: string, summary: SessionSummary): void {
  if (!isSessionId(summary.id)) throw new Error(`not a session id: ${summary.id}`);
  const dir = indexDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${summary.id}.json`);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(summary)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}

/**
 * This project's saved sessions (all projects' without `root`), newest first. An entry that does
 * not parse is left out (its conversation file is untouched).
 * Contract: never throws; no folder means no sessions.
 */
export function listSessions(home: string, root?: string): SessionSummary[] {
  let names: string[];
  try {
    names = readdirSync(indexDir(home));
  } catch {
    return [];
  }
  const out: SessionSummary[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      // Read as a plain file only: a named pipe among the entries blocked every listing (--resume, --continue).
      const read = readRegularFile(join(indexDir(home), name), INDEX_ENTRY_CAP);
      if (read.kind !== 'ok' || read.truncated) continue;
      const entry: unknown = JSON.parse(read.text);
      if (isSummary(entry) && `${entry.id}.json` === name && (root === undefined || entry.root === root))
        out.push(entry);
    } catch {
      // A damaged entry is skipped; the session's own file is not.
    }
  }
  return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

/** The project's most recently updated session, for `--continue`. */
export function latestSession(home: string, root: string): SessionSummary | undefined {
  return listSessions(home, root)[0];
}

function isSummary(v: unknown): v is SessionSummary {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return (
    typeof s.id === 'string' &&
    isSessionId(s.id) &&
    typeof s.root === 'string' &&
    typeof s.title === 'string' &&
    typeof s.model === 'string' &&
    typeof s.createdAt === 'string' &&
    typeof s.updatedAt === 'string' &&
    typeof s.turns === 'number'
  );
}
