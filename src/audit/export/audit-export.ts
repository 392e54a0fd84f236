/**
 * The audit log's copy to an OpenTelemetry collector (OTLP/HTTP logs). It hears each line only once
 * the line is in the local file — the gate has already written it, and runs nothing without it — so
 * the export can neither hold up nor loosen a decision. A worker thread (export-worker.ts) reads the
 * lines back from the file — the main thread hands it only where its writes went, no text — builds
 * the events and sends them in batches. It counts what was sent, what failed and what it dropped (shown in /audit; kept for
 * `warden audit --stats` in export notes). The worker, and the SDK in it, start with the first line
 * to send, never at start-up.
 */
import { Worker } from 'node:worker_threads';
import { redact } from '../redact';
import type { AuditExportState } from '../../protocol/state';
import { sanitizeText } from '../../text/sanitize';
import { type AuditExportSettings, shownEndpoint } from './export-settings';
import { type ExportCounts, writeExportNote } from './export-notes';
import type { EventAttributes } from './otel-events';
import type { WrittenRange } from '../writer';
import type { ExportWorkerData, FromWorker, ToWorker } from './export-worker';

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
/** Lines are handed to the worker this often, or as soon as this many wait. */
const HAND_OVER_MS = 100;
const HAND_OVER_LINES = 256;

export class AuditExport {
  private readonly counts: ExportCounts;
  private pending = 0;
  private handed = 0;
  /** The byte ranges not yet handed over (a run of writes to one file merged into one), and how many lines. */
  private waiting: WrittenRange[] = [];
  private waitingLines = 0;
  private timer: NodeJS.Timeout | undefined;
  private worker: Worker | undefined;
  private closed = false;
  private closing: (() => void) | undefined;
  /** A failure since the last note (the first of a run writes one). */
  private failing = false;

  constructor(private readonly o: AuditExportOptions) {
    this.counts = { endpoint: shownEndpoint(o.settings.url), sent: 0, failed: 0, dropped: 0 };
  }

  /**
   * A line that is in the local log, to send: where its write went (the lines of one write share
   * the range). Contract: never throws, never waits.
   */
  record(at: WrittenRange): void {
    if (this.closed) return;
    if (this.pending >= MAX_PENDING) {
      this.counts.dropped += 1;
      this.changed();
      return;
    }
    this.pending += 1;
    this.waitingLines += 1;
    const last = this.waiting[this.waiting.length - 1];
    if (last?.file === at.file && last.end === at.end) {
      // Another line of the same write.
    } else if (last?.file === at.file && last.end === at.start) last.end = at.end;
    else this.waiting.push({ ...at });
    if (this.waitingLines >= HAND_OVER_LINES) this.handOver();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.handOver(), HAND_OVER_MS);
      this.timer.unref();
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
    this.handOver();
    this.closed = true;
    const worker = this.worker;
    if (worker) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.closing = resolve;
        timer = setTimeout(resolve, waitMs);
        this.post({ kind: 'close' });
      });
      clearTimeout(timer);
      void worker.terminate();
    }
    if (this.pending > 0) this.fail(this.pending, 'not sent before warden stopped');
    if (this.handed > 0 || this.counts.dropped > 0) this.note();
  }

  private handOver(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waitingLines === 0) return;
    const { waiting: ranges, waitingLines: count } = this;
    this.waiting = [];
    this.waitingLines = 0;
    this.handed += count;
    this.post({ kind: 'ranges', ranges, count });
  }

  private post(message: ToWorker): void {
    try {
      this.start().postMessage(message);
    } catch (err) {
      if (message.kind === 'ranges') this.fail(message.count, errorText(err));
      else this.closing?.();
    }
  }

  /** The worker, started on first use; it keeps the process alive only while closing waits for it. */
  private start(): Worker {
    if (this.worker) return this.worker;
    const data: ExportWorkerData = {
      url: this.o.settings.url,
      headers: this.o.settings.headers,
      resource: this.o.resource,
      timeoutMs: this.o.timeoutMs ?? 10_000,
      delayMs: this.o.delayMs ?? 1000,
      maxQueue: MAX_PENDING,
    };
    const worker = startWorker(data);
    worker.unref();
    worker.on('message', (m: FromWorker) => {
      if (m.kind === 'closed') this.closing?.();
      else if ('sent' in m) this.sent(m.sent);
      else this.fail(m.failed, m.error);
    });
    worker.on('error', (err) => {
      this.fail(this.pending, `the export stopped (${errorText(err)})`);
      this.closing?.();
    });
    this.worker = worker;
    return worker;
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

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * The worker: the bundle's `chunks/audit-export-worker.js` (scripts/build.mjs builds it next to the
 * other chunks), or — run from src/ (tsx, tests) — the source itself, through tsx's loader.
 */
function startWorker(workerData: ExportWorkerData): Worker {
  const here = import.meta.url;
  const options = { workerData, stdout: true, stderr: true };
  if (here.endsWith('.ts')) {
    const source = JSON.stringify(new URL('./export-worker.ts', here).href);
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${source}); });`;
    return new Worker(boot, { ...options, eval: true });
  }
  const dir = new URL('.', here);
  const chunks = dir.pathname.endsWith('/chunks/') ? dir : new URL('./chunks/', dir);
  return new Worker(new URL('./audit-export-worker.js', chunks), options);
}
