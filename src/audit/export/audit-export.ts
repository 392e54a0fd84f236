/**
 * The audit log's copy to an OpenTelemetry collector (OTLP/HTTP logs). It hears each line only once
 * the line is in the local file — the gate has already written it, and runs nothing without it — so
 * the export can neither hold up nor loosen a decision: it queues, sends in batches, and counts what
 * it sent, what failed and what it dropped (shown in /audit; kept for `warden audit --stats` in
 * export notes). The SDK is loaded on the first line to send (otel-sdk.ts), never at start-up.
 */
import { redact } from '../redact';
import type { AuditRecord } from '../../protocol/audit';
import type { AuditExportState } from '../../protocol/state';
import { sanitizeText } from '../../text/sanitize';
import type { AuditExportSettings } from './export-settings';
import { shownEndpoint } from './export-settings';
import { type ExportCounts, writeExportNote } from './export-notes';
import { type EventAttributes, auditEvent, type AuditEvent } from './otel-events';
import type { OtelPipeline } from './otel-sdk';

/** The export's counts as /audit shows them (`CoreState.auditExport`). */
export type ExportStatus = AuditExportState;

export type AuditExportOptions = {
  settings: AuditExportSettings;
  sessionId: string;
  /** The audit folder: the export notes go beside the day files. */
  dir: string;
  /** Who sends (service.name, service.version, host.name). */
  resource: EventAttributes;
  /** Told when the counts change (a batch sent or failed, a line dropped). */
  onChange?: (status: ExportStatus) => void;
  /** How long records wait to go out together (default 1000 ms) and one request may take (default 10 s). */
  delayMs?: number;
  timeoutMs?: number;
};

/** Lines handed over and not yet settled beyond this are dropped (counted): a dead receiver must not grow memory. */
const MAX_PENDING = 8192;
/** How long closing waits for the last batches; what is still unsent then counts as failed. */
const CLOSE_WAIT_MS = 2000;

export class AuditExport {
  private readonly counts: ExportCounts;
  private pending = 0;
  private sequence = 0;
  private waiting: AuditEvent[] = [];
  private pipeline: OtelPipeline | undefined;
  private loading: Promise<void> | undefined;
  private closed = false;
  /** A failure since the last note (the first of a run writes one). */
  private failing = false;

  constructor(private readonly o: AuditExportOptions) {
    this.counts = { endpoint: shownEndpoint(o.settings.url), sent: 0, failed: 0, dropped: 0 };
  }

  /** A line that is in the local log, to send. Contract: never throws, never waits. */
  record(record: AuditRecord): void {
    if (this.closed) return;
    try {
      if (this.pending >= MAX_PENDING) {
        this.counts.dropped += 1;
        this.changed();
        return;
      }
      const event = auditEvent(record, ++this.sequence);
      this.pending += 1;
      if (this.pipeline) this.pipeline.emit(event);
      else {
        this.waiting.push(event);
        this.load();
      }
    } catch (err) {
      this.fail(1, err instanceof Error ? err.message : String(err));
    }
  }

  status(): ExportStatus {
    return { ...this.counts, from: this.o.settings.from, pending: this.pending };
  }

  /**
   * Sends what is queued, waiting at most CLOSE_WAIT_MS; what did not go out by then counts as failed.
   * Writes the session's note. Contract: never rejects.
   */
  async close(waitMs = CLOSE_WAIT_MS): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    const drained = (async () => {
      await this.loading;
      await this.pipeline?.shutdown();
    })().catch(() => undefined);
    await Promise.race([drained, deadline]);
    clearTimeout(timer);
    if (this.pending > 0) this.fail(this.pending, 'not sent before warden stopped');
    if (this.sequence > 0 || this.counts.dropped > 0) this.note();
  }

  private load(): void {
    this.loading ??= import('./otel-sdk').then(
      ({ startOtel }) => {
        this.pipeline = startOtel({
          url: this.o.settings.url,
          headers: this.o.settings.headers,
          resource: this.o.resource,
          heard: (result) => {
            if ('sent' in result) this.sent(result.sent);
            else this.fail(result.failed, result.error);
          },
          timeoutMs: this.o.timeoutMs ?? 10_000,
          delayMs: this.o.delayMs ?? 1000,
          maxQueue: MAX_PENDING,
        });
        for (const event of this.waiting) this.pipeline.emit(event);
        this.waiting = [];
      },
      (err: unknown) => {
        const n = this.waiting.length;
        this.waiting = [];
        this.fail(
          n,
          `the OpenTelemetry SDK could not be loaded (${err instanceof Error ? err.message : String(err)})`,
        );
      },
    );
  }

  private sent(n: number): void {
    this.pending = Math.max(0, this.pending - n);
    this.counts.sent += n;
    this.failing = false;
    this.changed();
  }

  private fail(n: number, error: string): void {
    this.pending = Math.max(0, this.pending - n);
    this.counts.failed += n;
    // The receiver's words may hold anything: a secret echoed back, terminal escapes.
    this.counts.lastError = sanitizeText(String(redact(error.slice(0, 300))));
    this.counts.lastErrorAt = new Date().toISOString();
    if (!this.failing && !this.closed) {
      this.failing = true;
      this.note();
    }
    this.changed();
  }

  private note(): void {
    writeExportNote(this.o.dir, {
      ts: new Date().toISOString(),
      sessionId: this.o.sessionId,
      ...this.counts,
    });
  }

  private changed(): void {
    try {
      this.o.onChange?.(this.status());
    } catch {
      // The listener's failure is not the export's.
    }
  }
}
