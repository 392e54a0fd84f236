/** Where the audit export goes: the standard OTEL_* variables over `audit.export`, and what turns it off. */
import { describe, expect, it } from 'vitest';
import { shownEndpoint } from '../../src/audit/export/export-settings';
import { parseHeaders, resolveAuditExport } from '../../src/config/audit-export';

describe('resolveAuditExport', () => {
  it.each([
    ['nothing set', {}, undefined, { kind: 'off' }],
    [
      'the logs endpoint, as it is',
      { OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://c:4318/custom/logs' },
      undefined,
      {
        kind: 'on',
        settings: { url: 'http://c:4318/custom/logs', from: 'OTEL_EXPORTER_OTLP_LOGS_ENDPOINT' },
      },
    ],
    [
      'the base endpoint gets /v1/logs',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' },
      undefined,
      { kind: 'on', settings: { url: 'http://c:4318/v1/logs', from: 'OTEL_EXPORTER_OTLP_ENDPOINT' } },
    ],
    [
      'the logs endpoint wins over the base one and the config',
      { OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://a/l', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b' },
      { endpoint: 'http://config/v1/logs' },
      { kind: 'on', settings: { url: 'http://a/l' } },
    ],
    [
      'the config alone',
      {},
      { endpoint: 'https://collector.example/v1/logs', headers: { Authorization: 'Bearer t' } },
      {
        kind: 'on',
        settings: {
          url: 'https://collector.example/v1/logs',
          headers: { Authorization: 'Bearer t' },
          from: 'audit.export.endpoint',
        },
      },
    ],
    [
      'enabled: false turns the variables off too',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b' },
      { enabled: false },
      { kind: 'off' },
    ],
    [
      'OTEL_LOGS_EXPORTER=none',
      { OTEL_LOGS_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b' },
      undefined,
      { kind: 'off' },
    ],
    [
      'OTEL_SDK_DISABLED=true',
      { OTEL_SDK_DISABLED: 'true' },
      { endpoint: 'http://c/v1/logs' },
      { kind: 'off' },
    ],
    ['a URL that is not http', { OTEL_EXPORTER_OTLP_ENDPOINT: 'file:///etc' }, undefined, { kind: 'error' }],
  ])('%s', (_name, env, config, expected) => {
    expect(resolveAuditExport(env, config)).toMatchObject(expected);
  });

  it('headers from the variable over the config; the logs variable over the general one', () => {
    const on = resolveAuditExport(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-general=1',
        OTEL_EXPORTER_OTLP_LOGS_HEADERS: 'Authorization=Bearer%20abc,x-tenant=t1',
      },
      { headers: { 'x-tenant': 'config', 'x-team': 'blue' } },
    );
    expect(on).toMatchObject({
      kind: 'on',
      settings: { headers: { Authorization: 'Bearer abc', 'x-tenant': 't1', 'x-team': 'blue' } },
    });
  });

  it('a protocol other than http/json is said', () => {
    const on = resolveAuditExport(
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      undefined,
    );
    expect(on.kind === 'on' && on.warnings[0]).toContain('not grpc');
  });
});

describe('parseHeaders', () => {
  it('reads k=v pairs, URL-decoded, and refuses what is not one', () => {
    expect(parseHeaders('a=1, b = two%2C3 ,')).toEqual({ a: '1', b: 'two,3' });
    expect(parseHeaders('no-equals')).toMatch(/expected key=value/);
    expect(parseHeaders('bad key=1')).toMatch(/expected key=value/);
  });
});

describe('shownEndpoint', () => {
  it('keeps no user, password or query', () => {
    expect(shownEndpoint('https://user:secret@c.example:4318/v1/logs?token=abc')).toBe(
      'https://c.example:4318/v1/logs',
    );
  });
});
