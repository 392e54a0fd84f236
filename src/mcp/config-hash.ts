import { createHash } from 'node:crypto';
import type { McpServerConfig } from './types';

/** sha256 (hex) of a server config with keys sorted, so key order and undefined fields do not matter. */
export function hashServerConfig(config: McpServerConfig): string {
  return createHash('sha256').update(stableJson(config)).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
