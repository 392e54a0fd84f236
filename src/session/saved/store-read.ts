import { isRepairMarker } from '../../audit/tail-repair';
import { readRegularFile } from '../../policy/safe-read';
import { type SessionMeta, type SessionRecord, isSessionRecord } from './store-records';

/** A session file as read: its meta line, its records, and whether a torn last line was skipped. */
export type SessionFile = { meta: SessionMeta; records: SessionRecord[]; tornTail: boolean };

export type ReadSession = { ok: true; file: SessionFile } | { ok: false; error: string };

/**
 * Reads a session file. A torn last line (a crash mid-write) is skipped; so is a torn line that a
 * later writer closed and marked (tail-repair). Any other line that is not a session record makes
 * the whole file unreadable: a resume that silently dropped the middle of a conversation would show
 * the model a history that never happened.
 * Contract: never throws and never changes the file; problems come back as `{ok:false, error}`.
 */
export function readSessionFile(path: string): ReadSession {
  // Not readFileSync: a named pipe there blocked the resume for good, and /dev/zero read without end.
  const read = readRegularFile(path, SESSION_FILE_CAP);
  if (read.kind === 'missing') return { ok: false, error: `cannot read ${path}: it does not exist` };
  if (read.kind === 'refused') return { ok: false, error: `cannot read ${path}: ${read.reason}` };
  if (read.truncated)
    return { ok: false, error: `cannot read ${path}: larger than ${SESSION_FILE_CAP / 2 ** 20} MiB` };
  return parseSessionText(read.text, path);
}

/** The session file format this warden writes and reads (the meta line's `v`). */
export const SESSION_FORMAT = 1;

/** Past this a session file is not resumed (a string that long is near V8's limit; a real one is a few MB). */
const SESSION_FILE_CAP = 256 * 2 ** 20;

/** The parsing half of `readSessionFile` (the bench times it apart from the disk). */
export function parseSessionText(text: string, path: string): ReadSession {
  const lines = text.split('\n');
  // A file ends with a newline; what follows the last one is a line cut short.
  const tail = lines.pop() ?? '';
  let tornTail = tail.trim() !== '';
  const parsed: unknown[] = [];
  const bad = new Set<number>();
  lines.forEach((line, i) => {
    try {
      parsed.push(JSON.parse(line));
    } catch {
      parsed.push(undefined);
      bad.add(i);
    }
  });
  if (tornTail) {
    try {
      // Written whole but for its newline: it counts.
      parsed.push(JSON.parse(tail));
      tornTail = false;
    } catch {
      // Skipped: the crash cut it.
    }
  }
  // A newer warden's file may hold records this one would misread: refused whole, with why.
  const head = parsed[0] as { t?: unknown; v?: unknown } | undefined;
  if (head?.t === 'meta' && typeof head.v === 'number' && head.v > SESSION_FORMAT)
    return {
      ok: false,
      error: `${path} was written by a newer warden (session format ${head.v}; this one reads format ${SESSION_FORMAT}): update warden to resume it. The file was left as it is.`,
    };
  const records: SessionRecord[] = [];
  for (const [i, value] of parsed.entries()) {
    if (isRepairMarker(value)) continue;
    if (bad.has(i) || !isSessionRecord(value)) {
      // Closed by a later writer's repair marker: the torn line a crash left, not damage.
      if (isRepairMarker(parsed[i + 1])) continue;
      return {
        ok: false,
        error: `${path}: line ${i + 1} is not a session record, so this session cannot be resumed safely. The file was left as it is.`,
      };
    }
    records.push(value);
  }
  const meta = records[0];
  if (meta?.t !== 'meta')
    return { ok: false, error: `${path} does not start with a session header; the file was left as it is.` };
  return { ok: true, file: { meta, records: records.slice(1), tornTail } };
}
