/**
 * The audit export's worker thread: turns the audit lines it is handed into OpenTelemetry events
 * (otel-events.ts) and sends them through the SDK (otel-sdk.ts), off warden's main thread — an
 * event costs ~30 µs of the SDK's work (attributes, JSON), more than an append itself, and a batch of
 * 512 would stall the screen for milliseconds. Says what became of each batch.
 *
 * Messages in: `{ kind: 'ranges', ranges, count }` (where `count` lines went: byte ranges of day files,
 * read back here), `{ kind: 'close' }` (send what is
 * queued, then say `closed`). Out: `{ kind: 'heard', sent }` / `{ kind: 'heard', failed, error }`,
 * `{ kind: 'closed' }`.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { WrittenRange } from '../writer';
import type { AuditRecord } from '../../protocol/audit';
import { auditEvent } from './otel-events';
import { type OtelOptions, startOtel } from './otel-sdk';

/** What the main thread starts the worker with. */
export type ExportWorkerData = Omit<OtelOptions, 'heard'>;

export type ToWorker = { kind: 'ranges'; ranges: WrittenRange[]; count: number } | { kind: 'close' };
export type FromWorker =
  | { kind: 'heard'; sent: number }
  | { kind: 'heard'; failed: number; error: string }
  | { kind: 'closed' };

const port = parentPort;
if (port) {
  lowerThisThread();
  const say = (message: FromWorker) => port.postMessage(message);
  const pipeline = startOtel({
    ...(workerData as ExportWorkerData),
    heard: (result) => say({ kind: 'heard', ...result }),
  });
  let sequence = 0;
  port.on('message', (message: ToWorker) => {
    if (message.kind === 'close') {
      void pipeline.shutdown().finally(() => say({ kind: 'closed' }));
      return;
    }
    let bad = 0;
    const lines = message.ranges.flatMap(linesIn);
    for (const line of lines) {
      try {
        pipeline.emit(auditEvent(JSON.parse(line) as AuditRecord, ++sequence));
      } catch {
        bad += 1;
      }
    }
    // Lines it could not read back (the file gone or cut since) count as failed too.
    bad += Math.max(0, message.count - lines.length);
    if (bad > 0) say({ kind: 'heard', failed: bad, error: 'a line that is not a record' });
  });
}

/** The lines in a range of a day file (each written whole, ending with its newline); none when it cannot be read. */
function linesIn(range: WrittenRange): string[] {
  let fd: number | undefined;
  try {
    fd = openSync(range.file, 'r');
    const bytes = Buffer.alloc(range.end - range.start);
    const got = readSync(fd, bytes, 0, bytes.length, range.start);
    const lines = bytes.toString('utf8', 0, got).split('\n');
    lines.pop();
    return lines;
  } catch {
    return [];
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The export gives way to the person's work: on Linux a nice value is a thread's own, and
 * `setpriority(PRIO_PROCESS, 0)` sets the calling thread's, so this worker yields the cores to
 * warden's main thread (the gate, the screen) whenever both want them, and takes what is idle.
 * Elsewhere it would nice the whole process: there it is left alone.
 */
function lowerThisThread(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(19);
  } catch {
    // Not allowed here (a sandbox without setpriority): the export still runs, at the usual priority.
  }
}
