import { randomUUID } from 'node:crypto';
import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { redactWithJson } from './redact';
import { MAX_LINE_CHARS, boundLine } from './bound-line';
import { auditFileName, utcDay } from './day-file';
import { type AuditFs, writeWholeText } from './tail-repair';
import type { AuditRecord, AuditWrite } from '../protocol/audit';
import { type AppendLock, appendLock } from './chain/append-lock';
import type { ChainLink } from './chain/line-hash';
import { type ChainedText, DayChain } from './chain/day-chain';
import { type AuditIdentity, identityFieldsOf } from './identity/audit-identity';

/** What a caller appends; the writer fills `ts` (now) and `sessionId` (its own) when absent. */
export type AuditEntry = Omit<AuditRecord, 'ts' | 'sessionId'> & { ts?: string; sessionId?: string };

export type AuditWriterOptions = {
  /** The audit folder, normally `$WARDEN_HOME/audit`; created 0700 when missing. */
  dir: string;
  sessionId?: string;
  /** Told about a failing write once per run of failures; never throws back into the caller. */
  onError: (error: Error) => void;
  /** Told once the log takes lines again after a run of failures (a write or a probe succeeded). */
  onRecover?: () => void;
  /** While failing, how often to check whether the log is writable again; 0 never checks. Default 2000. */
  probeEveryMs?: number;
  /**
   * How soon after a line is written it is put on disk (fdatasync, off the main thread), so a crash of
   * the machine loses at most this much of the log; 0 only at `flush`. Default 1000.
   */
  syncAfterMs?: number;
  now?: () => Date;
  /** Longer strings (file contents, outputs) are cut after redaction; `argsHash` keeps integrity. */
  maxStringLength?: number;
  /** The file operations used; tests inject failures (ENOSPC, EROFS, short writes). */
  fs?: AuditFs;
  /**
   * Who and where, on every line (user, host, project, warden version, model): asked at each write,
   * serialised and redacted again only when it returns another object.
   */
  identity?: () => AuditIdentity;
};

export type { AuditFs } from './tail-repair';

/**
 * What an append did: the record as redacted, and whether its line is in the file, whole — then with
 * the line exactly as written, which holds the record's fields, the writer's `identity` (redacted)
 * and the chain `link`.
 */
export type AuditAppend =
  | {
      ok: true;
      record: AuditRecord;
      line: string;
      identity: Partial<AuditIdentity>;
      link: ChainLink;
      /** Where the write that held the line went: its file and byte range (every line of one write shares it). */
      at: WrittenRange;
    }
  | { ok: false; record: AuditRecord; error: Error };

/** Bytes `start`..`end` of an audit day file: one write's lines, each ending with its newline. */
export type WrittenRange = { file: string; start: number; end: number };

export type AuditWriter = {
  /**
   * Redacts and appends one record as one line.
   * Contract: never throws; `ok` only when the whole line was written. A failed write is also
   * reported through `onError`, and the next append tries again (reopening the file).
   */
  append(entry: AuditEntry): AuditAppend;
  /**
   * `append` for a caller that can wait: the lines of every `appendSoon` made in the same turn of the
   * microtask queue go out in one write (a burst of parallel calls wrote each decision and outcome line
   * with a system call of its own: ~10 % of its time). Resolves once its line is written
   * whole, or failed; a line is never reported written before it is. An `append` meanwhile writes the
   * waiting lines first, so the file keeps the order the lines were made in.
   * Contract: never rejects.
   */
  appendSoon(entry: AuditEntry): Promise<AuditAppend>;
  /**
   * Whether the log can take lines now: the day file opens (its torn tail repaired) and the disk
   * has room. A success after failures calls `onRecover`. Contract: never throws.
   */
  probe(): boolean;
  /** Resolves once appended lines are on disk (fdatasync). Contract: never rejects. */
  flush(): Promise<void>;
  /** Releases the file and stops probing; a later append reopens it, so late outcomes are not lost. */
  close(): void;
};

/**
 * The writer as the gate's audit sink (gate.ts `AuditSink`): each append answered `ok` or with the
 * error's message; `written` hears every record once its line is in the log (the sidebar, events),
 * as the line holds it (identity and link included), and where its write went (the export).
 */
export function auditSinkOf(
  writer: AuditWriter,
  written?: (record: AuditRecord, at: WrittenRange) => void,
): { append(entry: AuditEntry): AuditWrite; appendSoon(entry: AuditEntry): Promise<AuditWrite> } {
  const answer = (w: AuditAppend): AuditWrite => {
    if (!w.ok) return { ok: false, error: w.error.message };
    if (written) written(Object.assign({}, w.record, w.identity, w.link), w.at);
    return { ok: true };
  };
  return {
    append: (entry) => answer(writer.append(entry)),
    appendSoon: (entry) => writer.appendSoon(entry).then(answer),
  };
}

/** Below this much free space a probe does not call the log writable: one long record would not fit. */
const MIN_FREE_BYTES = 64 * 1024;

/**
 * Creates the append-only audit writer. Each record is redacted once, serialised to one line and
 * written with a single `write` on a file opened in append mode, so concurrent writers (sub-agents,
 * several warden processes) never interleave or lose lines. Each line is a link of the day's hash
 * chain (chain/): under the folder's append lock the writer reads where the file's chain stands
 * (another process may have appended), repairs a torn tail left by an earlier failed write as a
 * link of its own (tail-repair.ts), and writes its lines chained after it.
 */
export function createAuditWriter(options: AuditWriterOptions): AuditWriter {
  const { dir, onError } = options;
  const fs: AuditFs = options.fs ?? nodeFs;
  const sessionId = options.sessionId ?? randomUUID();
  const now = options.now ?? (() => new Date());
  const maxStringLength = options.maxStringLength ?? 8192;
  const probeEveryMs = options.probeEveryMs ?? 2000;
  const syncAfterMs = options.syncAfterMs ?? 1000;
  /** `unsynced`: lines went into this file since its last sync began. */
  let open: { fd: number; day: string; unsynced?: true } | undefined;
  let failing = false;
  /**
   * A sync failed: lines written may not be on disk, whatever later writes or probes say (each of
   * them counted as a recovery, so a disk failing every sync was reported and recovered every
   * second: red-team finding). Only a sync that succeeds clears it; until then no line is taken
   * (a log that cannot keep its lines is a log that cannot be written: the gate runs nothing, as the
   * banner and a headless run already said), and a probe tries the sync again.
   */
  let syncFailed: Error | undefined;
  let probing: NodeJS.Timeout | undefined;
  let syncing: NodeJS.Timeout | undefined;
  const lock: AppendLock = appendLock(fs, dir);
  const chain = new DayChain(fs, dir, () => ({ ts: now().toISOString(), sessionId }));
  const identityText = identityFieldsOf(options.identity);

  /** Syncs `fd`; `then` runs once the sync is done. A failure is reported, a success ends a sync failure. */
  const sync = (fd: number, then?: () => void): void => {
    fs.fdatasync(fd, (error) => {
      // A descriptor closed meanwhile (the writer closed) leaves nothing to report.
      if (error && (error as NodeJS.ErrnoException).code !== 'EBADF') {
        syncFailed = new Error(`the log's lines could not be put on disk (${error.message})`);
        report(syncFailed);
      } else if (!error && syncFailed) {
        syncFailed = undefined;
        recovered();
      }
      then?.();
    });
  };

  /** After a write: the lines written are synced within syncAfterMs (one sync for all written meanwhile). */
  const syncSoon = (): void => {
    if (syncing || syncAfterMs <= 0) return;
    syncing = setTimeout(() => {
      syncing = undefined;
      if (!open) return;
      delete open.unsynced;
      sync(open.fd);
    }, syncAfterMs);
    syncing.unref?.();
  };

  const stopProbing = (): void => {
    clearInterval(probing);
    probing = undefined;
  };

  const report = (error: unknown): void => {
    if (!failing && probeEveryMs > 0) {
      probing = setInterval(() => writer.probe(), probeEveryMs);
      probing.unref?.();
    }
    if (failing) return;
    failing = true;
    calm(() => onError(error instanceof Error ? error : new Error(String(error))));
  };

  const recovered = (): void => {
    if (!failing || syncFailed) return;
    failing = false;
    stopProbing();
    calm(() => options.onRecover?.());
  };

  /**
   * Closes the open file. `syncFirst` (another day's file is next): lines written since its last sync
   * are synced first and the file closed after — they were closed unsynced, the day's last second
   * left to the kernel's writeback (red-team finding).
   */
  const release = (syncFirst = false): void => {
    chain.forget();
    if (!open) return;
    const { fd, unsynced } = open;
    open = undefined;
    const closeIt = (): void => {
      try {
        fs.closeSync(fd);
      } catch {
        // Already closed or broken; nothing left to release.
      }
    };
    if (syncFirst && unsynced && syncAfterMs > 0) sync(fd, closeIt);
    else closeIt();
  };

  const fdFor = (day: string): number => {
    if (open?.day === day) return open.fd;
    release(true);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // `a+`: appends, and lets the tail be read to find a torn last line.
    const fd = fs.openSync(join(dir, auditFileName(day)), 'a+', 0o600);
    try {
      // A FIFO or a device (/dev/null behind a symlink) takes every write and keeps no line; a FIFO
      // nobody reads also blocks warden for good once its buffer is full (red-team finding).
      if (!fs.fstatSync(fd).isFile()) throw new Error(`${auditFileName(day)} is not a regular file`);
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
    open = { fd, day };
    return fd;
  };

  const hasRoom = (): boolean => {
    const s = fs.statfsSync(dir);
    // root may use the blocks reserved for it, so count those too.
    const blocks = process.getuid?.() === 0 ? s.bfree : s.bavail;
    return blocks * s.bsize >= MIN_FREE_BYTES;
  };

  // The gate's records come stamped (`ts` and `sessionId` first): they are redacted as they are.
  const withStamp = (entry: AuditEntry): AuditEntry => {
    if (entry.ts !== undefined && entry.sessionId !== undefined) return entry;
    const { ts, sessionId: ownSession, ...rest } = entry;
    return { ts: ts ?? now().toISOString(), sessionId: ownSession ?? sessionId, ...rest };
  };

  /** The record as it will be written, and its JSON (the line before its identity and link). */
  const lineOf = (entry: AuditEntry): Line => {
    // A stamped record is built for this append alone: when clean it is its own redacted form.
    const redacted = redactWithJson(withStamp(entry), { maxStringLength });
    const { value, json } =
      redacted.json.length > MAX_LINE_CHARS ? boundLine(redacted.value as AuditRecord) : redacted;
    return { record: value as AuditRecord, json };
  };

  /**
   * Writes lines of one day's file with one write, chained after the file's last line under the
   * folder's append lock. Whatever part went out on a failure is a torn tail (the next write
   * repairs it), and every line of the write counts as not written.
   */
  const writeLines = (stampDay: string, lines: readonly Line[]): AuditAppend[] => {
    const unsynced = syncFailed;
    if (unsynced) return lines.map(({ record }) => ({ ok: false, record, error: unsynced }));
    let chained: ChainedText;
    let at: WrittenRange;
    const who = identityText();
    try {
      // Held until this job's microtasks have run: the lines of one burst take it once.
      const fresh = lock.hold();
      const day = chain.dayFor(stampDay, now(), fresh);
      const fd = fdFor(day);
      const head = chain.headOf(fd, day, fresh);
      chained = chain.chain(lines, who.text, head);
      const bytes = writeWholeText(fs, fd, chained.text);
      chain.wrote(fd, day, head, chained, bytes);
      at = { file: join(dir, auditFileName(day)), start: head.size, end: head.size + bytes };
      if (open) open.unsynced = true;
      syncSoon();
    } catch (err) {
      release();
      const error = err instanceof Error ? err : new Error(String(err));
      report(error);
      return lines.map(({ record }) => ({ ok: false, record, error }));
    }
    recovered();
    // What was written: each line, and the identity and link it holds beside the record's fields.
    return lines.map(({ record }, i) => ({
      ok: true,
      record,
      line: chained.lines[i] as string,
      identity: who.value,
      link: chained.links[i] as ChainLink,
      at,
    }));
  };

  type Done = (written: AuditAppend) => void;
  let waiting: { entry: AuditEntry; done: Done }[] = [];

  /** Writes the lines waiting for the end of this microtask turn: each run of one day's lines with one write. */
  const writeWaiting = (): void => {
    const batch = waiting;
    waiting = [];
    let run: { day: string; lines: Line[]; done: Done[] } | undefined;
    const writeRun = (): void => {
      if (!run) return;
      const written = writeLines(run.day, run.lines);
      run.done.forEach((done, i) => calm(() => done(written[i] as AuditAppend)));
      run = undefined;
    };
    for (const { entry, done } of batch) {
      let line: Line;
      let day: string;
      try {
        line = lineOf(entry);
        day = utcDay(line.record.ts, now);
      } catch (err) {
        // A record that cannot be serialised is a line not written; the others still go out.
        const error = err instanceof Error ? err : new Error(String(err));
        calm(() => done({ ok: false, record: entry as AuditRecord, error }));
        continue;
      }
      if (run && run.day !== day) writeRun();
      run ??= { day, lines: [], done: [] };
      run.lines.push(line);
      run.done.push(done);
    }
    writeRun();
  };

  const writer: AuditWriter = {
    append(entry) {
      writeWaiting();
      const line = lineOf(entry);
      return writeLines(utcDay(line.record.ts, now), [line])[0] as AuditAppend;
    },
    appendSoon(entry) {
      return new Promise((done) => {
        if (waiting.length === 0) queueMicrotask(writeWaiting);
        waiting.push({ entry, done });
      });
    },
    probe() {
      try {
        const fresh = lock.hold();
        const day = chain.dayFor(now().toISOString().slice(0, 10), now(), fresh);
        const fd = fdFor(day);
        chain.headOf(fd, day, fresh);
        if (!hasRoom()) return false;
        // The lines cannot be kept until a sync succeeds again: this one's success is the recovery.
        if (syncFailed) {
          sync(fd);
          return false;
        }
      } catch {
        release();
        return false;
      }
      recovered();
      return true;
    },
    flush() {
      writeWaiting();
      if (!open) return Promise.resolve();
      delete open.unsynced;
      const { fd } = open;
      return new Promise((resolve) => sync(fd, resolve));
    },
    close() {
      writeWaiting();
      stopProbing();
      clearTimeout(syncing);
      syncing = undefined;
      release();
      lock.close();
    },
  };
  return writer;
}

/** A record as redacted and its JSON. */
type Line = { record: AuditRecord; json: string };

/** Runs a callback of the caller's; its failure is not the writer's problem. */
function calm(fn: () => void): void {
  try {
    fn();
  } catch {
    // The error sink failing is not the turn's problem either.
  }
}
