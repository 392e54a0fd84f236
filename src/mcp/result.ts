import type { ToolOutput } from '../tools/types';
import { capText } from '../tools/web/web-content';

/** The same cap other tools use for what the model reads. */
export const MCP_MAX_OUTPUT_CHARS = 8_000;

type Part = { type?: unknown; [key: string]: unknown };

/**
 * Turns an MCP tool result into what the model reads: text parts joined, images, audio and
 * resources noted (not inlined), `isError` as a failure, capped with a note of what was cut.
 * Contract: never throws on a malformed result; unknown parts are noted by type.
 */
export function formatToolResult(result: unknown, maxChars = MCP_MAX_OUTPUT_CHARS): ToolOutput {
  const record = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
  const parts = Array.isArray(record.content) ? (record.content as Part[]) : [];
  const pieces = parts.map(describePart).filter((p) => p !== '');
  if (pieces.length === 0 && record.structuredContent !== undefined)
    pieces.push(JSON.stringify(record.structuredContent, null, 2));
  const shown = capped(pieces.join('\n'), maxChars);
  if (record.isError === true)
    return { ok: false, error: shown || 'The MCP tool reported an error without a message.' };
  const data =
    record.structuredContent !== undefined ? { structuredContent: record.structuredContent } : undefined;
  return { ok: true, output: shown === '' ? '(no output)' : shown, ...(data ? { data } : {}) };
}

function describePart(part: Part): string {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' ? part.text : '';
    case 'image':
    case 'audio':
      return `[${part.type}: ${str(part.mimeType) || 'unknown type'}, ${base64Bytes(part.data)} bytes]`;
    case 'resource': {
      const res = (
        typeof part.resource === 'object' && part.resource !== null ? part.resource : {}
      ) as Record<string, unknown>;
      const label = `${str(res.uri) || 'unnamed'}${res.mimeType ? ` (${str(res.mimeType)})` : ''}`;
      if (typeof res.text === 'string') return `[resource: ${label}]\n${res.text}`;
      return `[resource: ${label}, ${base64Bytes(res.blob)} bytes]`;
    }
    case 'resource_link':
      return `[resource link: ${str(part.uri)}${part.name ? ` (${str(part.name)})` : ''}]`;
    default:
      return `[${str(part.type) || 'unknown'} content]`;
  }
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** `text` within `maxChars`, with a note of what was cut: every text a server sends the model is capped. */
export function capped(text: string, maxChars = MCP_MAX_OUTPUT_CHARS): string {
  const cut = capText(text, maxChars);
  return cut.cut > 0 ? `${cut.text}\n\n[Cut: ${cut.cut} more characters not shown.]` : cut.text;
}
