/**
 * A minimal OpenTelemetry collector for tests: `node:http` on 127.0.0.1, port 0, taking OTLP/HTTP
 * logs with JSON bodies (`POST /v1/logs`, what @opentelemetry/exporter-logs-otlp-http sends) and
 * decoding each log record into its event name, body and attributes.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP AnyValue, as the JSON encoding writes it. */
type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
};

/** One log record as received, its attributes decoded (intValue as a number). */
export type ReceivedEvent = {
  eventName?: string;
  body?: string;
  timeUnixNano?: string;
  resource: Record<string, string | number | boolean>;
  scope?: string;
  attributes: Record<string, string | number | boolean>;
};

export type OtlpReceiver = {
  /** The base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  url: string;
  events: ReceivedEvent[];
  /** Each request's path and headers. */
  requests: { path: string; contentType: string | undefined; headers: Record<string, unknown> }[];
  close(): Promise<void>;
};

type KeyValue = { key: string; value: AnyValue };
type LogsBody = {
  resourceLogs?: {
    resource?: { attributes?: KeyValue[] };
    scopeLogs?: {
      scope?: { name?: string };
      logRecords?: { eventName?: string; timeUnixNano?: string; body?: AnyValue; attributes?: KeyValue[] }[];
    }[];
  }[];
};

const valueOf = (v: AnyValue): string | number | boolean =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue ?? ''));

const mapOf = (kvs: KeyValue[] | undefined) =>
  Object.fromEntries((kvs ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const events: ReceivedEvent[] = [];
  const requests: OtlpReceiver['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'], headers: req.headers });
      let body: LogsBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LogsBody;
      } catch {
        res.writeHead(400).end();
        return;
      }
      for (const rl of body.resourceLogs ?? []) {
        const resource = mapOf(rl.resource?.attributes);
        for (const sl of rl.scopeLogs ?? [])
          for (const lr of sl.logRecords ?? [])
            events.push({
              ...(lr.eventName !== undefined ? { eventName: lr.eventName } : {}),
              ...(lr.body ? { body: String(valueOf(lr.body)) } : {}),
              ...(lr.timeUnixNano !== undefined ? { timeUnixNano: lr.timeUnixNano } : {}),
              resource,
              ...(sl.scope?.name ? { scope: sl.scope.name } : {}),
              attributes: mapOf(lr.attributes),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (taken, then let go). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
