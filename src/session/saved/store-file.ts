import * as nodeFs from 'node:fs';
import { dirname } from 'node:path';
import { repairTornTail, writeWholeText } from '../../audit/tail-repair';
import { redactedRecordJson } from './record-redact';
import { type SessionRecord, isBoundary } from './store-records';

/** The append side of one session file. */
export type SessionLog = {
  /**
   * Redacts and queues one record. Boundary records (see `isBoundary`; `boundary` overrides) and
   * everything queued before them are written at once, then synced in the background; the rest go
   * out on the next tick.
   * Contract: never throws; a failure is reported once through `onError` and later records are dropped.
   */
  append(record: SessionRecord, boundary?: boolean): void;
  /** Writes whatever is queued now. Contract: never throws. */
  flush(): void;
  /** Writes what is queued, syncs and releases the file. Contract: never rejects. */
  close(): Promise<void>;
};

export type SessionLogOptions = {
  path: string;
  sessionId: string;
  onError: (error: Error) => void;
  fs?: typeof nodeFs;
};

/**
 * Opens (creating 0600 in a 0700 folder) a session file for appending. A torn last line a crash left
 * is closed and marked first (the audit's tail repair), so the next record is not glued onto it.
 * Writes are buffered: a turn never waits for the disk except for one `write` at a boundary, and
 * a `kill -9` loses at most the events after the last boundary (streamed text, a started card).
 * Contract: throws only when the file cannot be opened or repaired.
 */
export function openSessionLog(o: SessionLogOptions): SessionLog {
  const fs = o.fs ?? nodeFs;
  fs.mkdirSync(dirname(o.path), { recursive: true, mode: 0o700 });
  const fd = fs.openSync(o.path, 'a+', 0o600);
  try {
    repairTornTail(fs, fd, { ts: new Date().toISOString(), sessionId: o.sessionId });
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  let queue: string[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  let syncing: Promise<void> | undefined;
  let syncAgain = false;
  let failed = false;
  let closed = false;

  const fail = (err: unknown): void => {
    if (failed) return;
    failed = true;
    queue = [];
    try {
      o.onError(err instanceof Error ? err : new Error(String(err)));
    } catch {
      // The listener's failure is not the turn's problem.
    }
  };
  const flush = (): void => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (failed || closed || queue.length === 0) return;
    const text = queue.join('');
    queue = [];
    try {
      writeWholeText(fs, fd, text);
    } catch (err) {
      fail(err);
    }
  };
  // One fdatasync at a time; a boundary during one asks for another after it.
  const sync = (): void => {
    if (syncing) {
      syncAgain = true;
      return;
    }
    syncing = new Promise<void>((resolve) => {
      fs.fdatasync(fd, (err) => {
        if (err) fail(err);
        resolve();
      });
    }).then(() => {
      syncing = undefined;
      if (syncAgain && !closed) {
        syncAgain = false;
        sync();
      }
    });
  };

  return {
    append(record, boundary = isBoundary(record)) {
      if (failed || closed) return;
      let line: string;
      try {
        line = `${redactedRecordJson(record)}\n`;
      } catch (err) {
        return fail(err);
      }
      queue.push(line);
      if (boundary) {
        flush();
        if (!failed) sync();
      } else if (!scheduled) scheduled = setImmediate(flush);
    },
    flush,
    async close() {
      if (closed) return;
      flush();
      closed = true;
      await syncing;
      await new Promise<void>((resolve) => fs.fdatasync(fd, () => resolve()));
      try {
        fs.closeSync(fd);
      } catch {
        // Already gone; nothing to release.
      }
    },
  };
}
