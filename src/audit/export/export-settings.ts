/** Where the audit export sends: resolved from the environment and the config by src/config/audit-export.ts. */

/** Export as resolved: the logs URL, its headers, and where each came from (for /audit and --stats). */
export type AuditExportSettings = {
  url: string;
  headers: Record<string, string>;
  /** `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT`, `OTEL_EXPORTER_OTLP_ENDPOINT` or `audit.export`. */
  from: string;
};

/** The URL as /audit and --stats show it: no user, password or query (a token can hide in each). */
export function shownEndpoint(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(an endpoint that does not parse)';
  }
}
