/**
 * Where the audit log is exported, from the standard OpenTelemetry variables or `audit.export` in
 * the person's config: OTEL_EXPORTER_OTLP_LOGS_ENDPOINT (the logs URL as it is), else
 * OTEL_EXPORTER_OTLP_ENDPOINT (a base URL: `/v1/logs` is added), else `audit.export.endpoint`; the
 * headers from OTEL_EXPORTER_OTLP_LOGS_HEADERS or OTEL_EXPORTER_OTLP_HEADERS (`k=v,k2=v2`, values
 * URL-encoded) over `audit.export.headers`. OTEL_SDK_DISABLED=true, OTEL_LOGS_EXPORTER=none or
 * `"enabled": false` turn it off. Only OTLP over HTTP with JSON bodies is spoken.
 */
import type { AuditExportSettings } from '../audit/export/export-settings';
import { isHttpUrl } from './http-url';

/** `audit.export` as the config file holds it. */
export type AuditExportConfig = {
  enabled?: boolean;
  endpoint?: string;
  headers?: Record<string, string>;
};

export type ExportResolution =
  | { kind: 'off' }
  | { kind: 'on'; settings: AuditExportSettings; warnings: string[] }
  | { kind: 'error'; error: string };

type Env = Readonly<Record<string, string | undefined>>;

/** Resolves the export from the environment and the config. Contract: never throws. */
export function resolveAuditExport(env: Env, config: AuditExportConfig | undefined): ExportResolution {
  const get = (name: string): string | undefined => env[name]?.trim() || undefined;
  if (get('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { kind: 'off' };
  if (get('OTEL_LOGS_EXPORTER')?.toLowerCase() === 'none') return { kind: 'off' };
  if (config?.enabled === false) return { kind: 'off' };
  const logs = get('OTEL_EXPORTER_OTLP_LOGS_ENDPOINT');
  const base = get('OTEL_EXPORTER_OTLP_ENDPOINT');
  const picked = logs
    ? { given: logs, url: logs, from: 'OTEL_EXPORTER_OTLP_LOGS_ENDPOINT' }
    : base
      ? { given: base, url: `${base.replace(/\/+$/, '')}/v1/logs`, from: 'OTEL_EXPORTER_OTLP_ENDPOINT' }
      : config?.endpoint
        ? { given: config.endpoint, url: config.endpoint, from: 'audit.export.endpoint' }
        : undefined;
  if (!picked) return { kind: 'off' };
  if (!isHttpUrl(picked.given) || !isHttpUrl(picked.url))
    return {
      kind: 'error',
      error: `${picked.from}: expected an http or https URL, got ${JSON.stringify(picked.given)}`,
    };
  const headerText = get('OTEL_EXPORTER_OTLP_LOGS_HEADERS') ?? get('OTEL_EXPORTER_OTLP_HEADERS');
  const fromEnv = headerText === undefined ? {} : parseHeaders(headerText);
  if (typeof fromEnv === 'string') return { kind: 'error', error: fromEnv };
  const warnings: string[] = [];
  const protocol = get('OTEL_EXPORTER_OTLP_LOGS_PROTOCOL') ?? get('OTEL_EXPORTER_OTLP_PROTOCOL');
  if (protocol && protocol !== 'http/json')
    warnings.push(`The audit export speaks OTLP over HTTP with JSON bodies (http/json), not ${protocol}.`);
  return {
    kind: 'on',
    settings: { url: picked.url, headers: { ...config?.headers, ...fromEnv }, from: picked.from },
    warnings,
  };
}

/** `k=v,k2=v2` (W3C baggage-like, values URL-encoded), or why not. */
export function parseHeaders(text: string): Record<string, string> | string {
  const headers: Record<string, string> = {};
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    const key = eq > 0 ? part.slice(0, eq).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key))
      return 'OTEL_EXPORTER_OTLP_HEADERS: expected key=value pairs separated by commas';
    try {
      headers[key] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return `OTEL_EXPORTER_OTLP_HEADERS: the value of ${key} is not URL-encoded text`;
    }
  }
  return headers;
}
