import { randomUUID } from 'node:crypto';
import { closeSync, fdatasync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from './redact';
import type { AuditRecord } from './types';

/** What a caller appends; the writer fills `ts` (now) and `sessionId` (its own) when absent. */
export type AuditEntry = Omit<AuditRecord, 'ts' | 'sessionId'> & { ts?: string; sessionId?: string };

export type AuditWriterOptions = {
  /** The audit folder, normally `$WARDEN_HOME/audit`; created 0700 when missing. */
  dir: string;
  sessionId?: string;
  /** Told about a failing write once per run of failures; never throws back into the caller. */
  onError: (error: Error) => void;
  now?: () => Date;
  /** Longer strings (file contents, outputs) are cut after redaction; `argsHash` keeps integrity. */
  maxStringLength?: number;
};

export type AuditWriter = {
  /**
   * Redacts and appends one record as one line; returns the record as written.
   * Contract: never throws; a failed write is reported through `onError` and the next append
   * tries again (reopening the file).
   */
  append(entry: AuditEntry): AuditRecord;
  /** Resolves once appended lines are on disk (fdatasync). Contract: never rejects. */
  flush(): Promise<void>;
  /** Releases the file; a later append reopens it, so late outcomes are not lost. */
  close(): void;
};

export const AUDIT_FILE_PATTERN = /^audit-(\d{4}-\d{2}-\d{2})\.jsonl$/;

/** `audit-YYYY-MM-DD.jsonl` for a day. */
export const auditFileName = (day: string): string => `audit-${day}.jsonl`;

/**
 * UTC day of an ISO timestamp, or of `fallback` when the timestamp does not parse or falls
 * outside years 0000–9999 (which would not make a `YYYY-MM-DD` file name).
 */
export function utcDay(ts: string, fallback: Date): string {
  const time = Date.parse(ts);
  const day = Number.isFinite(time) ? new Date(time).toISOString().slice(0, 10) : '';
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : fallback.toISOString().slice(0, 10);
}

/**
 * Creates the append-only audit writer. Each record is redacted once, serialised to one line and
 * written with a single `write` on a file opened in append mode, so concurrent writers (sub-agents,
 * several warden processes) never interleave or lose lines.
 */
export function createAuditWriter(options: AuditWriterOptions): AuditWriter {
  const { dir, onError } = options;
  const sessionId = options.sessionId ?? randomUUID();
  const now = options.now ?? (() => new Date());
  const maxStringLength = options.maxStringLength ?? 8192;
  let open: { fd: number; day: string } | undefined;
  let failing = false;

  const report = (error: unknown): void => {
    if (failing) return;
    failing = true;
    try {
      onError(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // The error sink failing is not the turn's problem either.
    }
  };

  const release = (): void => {
    if (!open) return;
    const { fd } = open;
    open = undefined;
    try {
      closeSync(fd);
    } catch {
      // Already closed or broken; nothing left to release.
    }
  };

  const fdFor = (day: string): number => {
    if (open?.day === day) return open.fd;
    release();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const fd = openSync(join(dir, auditFileName(day)), 'a', 0o600);
    open = { fd, day };
    return fd;
  };

  const write = (day: string, line: Buffer): void => {
    const fd = fdFor(day);
    let offset = 0;
    // A regular file takes the whole buffer in one write; the loop only matters on a short write.
    while (offset < line.length) offset += writeSync(fd, line, offset, line.length - offset);
  };

  return {
    append(entry) {
      const at = now();
      const { ts, sessionId: ownSession, ...rest } = entry;
      const record = { ts: ts ?? at.toISOString(), sessionId: ownSession ?? sessionId, ...rest };
      const safe = redact(record, { maxStringLength }) as AuditRecord;
      try {
        write(utcDay(safe.ts, at), Buffer.from(`${JSON.stringify(safe)}\n`));
        failing = false;
      } catch (error) {
        release();
        report(error);
      }
      return safe;
    },
    flush() {
      const fd = open?.fd;
      if (fd === undefined) return Promise.resolve();
      return new Promise((resolve) => {
        fdatasync(fd, (error) => {
          if (error) report(error);
          resolve();
        });
      });
    },
    close: release,
  };
}
