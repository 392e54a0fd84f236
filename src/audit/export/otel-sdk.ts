/**
 * The OpenTelemetry logs SDK and its OTLP/HTTP exporter, the only module that imports them. Only the
 * export's worker thread loads it (export-worker.ts, its own bundle file), once the first audit line
 * is to be exported: a warden that exports nothing never compiles any of it. Each batch's result is
 * counted through `heard`.
 */
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchLogRecordProcessor,
  type LogRecordExporter,
  LoggerProvider,
  type ReadableLogRecord,
} from '@opentelemetry/sdk-logs';
import type { AuditEvent, EventAttributes } from './otel-events';

/** A started pipeline: events in, batches out; `shutdown` sends what is queued (bounded by the caller). */
export type OtelPipeline = {
  emit(event: AuditEvent): void;
  shutdown(): Promise<void>;
};

/** What became of each batch: `sent` records delivered, or `failed` with the error. */
export type BatchHeard = (result: { sent: number } | { failed: number; error: string }) => void;

export type OtelOptions = {
  url: string;
  headers: Record<string, string>;
  resource: EventAttributes;
  heard: BatchHeard;
  /** How long one export request may take (retries included). */
  timeoutMs: number;
  /** How long records wait to be sent together. */
  delayMs: number;
  /** The most records queued; the caller keeps under it (and counts what it drops). */
  maxQueue: number;
};

/** Starts the SDK with one batch processor whose exporter counts its results. Contract: throws only on bad options. */
export function startOtel(o: OtelOptions): OtelPipeline {
  const inner = new OTLPLogExporter({ url: o.url, headers: o.headers, timeoutMillis: o.timeoutMs });
  const exporter: LogRecordExporter = {
    export(logs: ReadableLogRecord[], done) {
      inner.export(logs, (result) => {
        if (result.code === 0) o.heard({ sent: logs.length });
        else o.heard({ failed: logs.length, error: result.error?.message ?? 'export failed' });
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush(),
  };
  const provider = new LoggerProvider({
    resource: resourceFromAttributes(o.resource),
    processors: [
      new BatchLogRecordProcessor({
        exporter,
        maxQueueSize: o.maxQueue,
        maxExportBatchSize: 512,
        scheduledDelayMillis: o.delayMs,
        exportTimeoutMillis: o.timeoutMs,
      }),
    ],
  });
  const logger = provider.getLogger('warden.audit');
  return {
    emit(event) {
      logger.emit({
        eventName: event.name,
        body: event.body,
        timestamp: event.timestamp,
        severityNumber: 9,
        severityText: 'INFO',
        attributes: event.attributes,
      });
    },
    shutdown: () => provider.shutdown(),
  };
}
