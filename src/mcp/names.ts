import { createHash } from 'node:crypto';

const MAX_TOOL_NAME = 64;
/**
 * Leaves room for the tool part, and keeps `mcp__<server>__` whole when a long tool name is cut.
 * A valid config name up to this length is used unchanged, so grants can name the server as configured.
 */
const MAX_SERVER_PART = 40;

/**
 * A server name as it appears inside tool names: [a-zA-Z0-9-] runs joined by single underscores,
 * at most 40 characters, so `mcp__<server>__<tool>` always splits at the first double underscore.
 */
export function sanitizeServerName(name: string): string {
  const clean = name
    .replace(/[^a-zA-Z0-9-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  if (!/[a-zA-Z0-9]/.test(clean)) return `server-${shortHash(name)}`;
  if (clean.length <= MAX_SERVER_PART) return clean;
  return `${clean.slice(0, MAX_SERVER_PART - 9).replace(/_+$/, '')}-${shortHash(name)}`;
}

/**
 * The warden name of an MCP tool: `mcp__<server>__<tool>`, only [a-zA-Z0-9_-], at most 64
 * characters (a long name keeps its start and gains a short hash so it stays unique).
 */
export function mcpToolName(server: string, tool: string): string {
  const hash = shortHash(`${server}\0${tool}`);
  let cleanTool = tool.replace(/[^a-zA-Z0-9_-]/g, '_');
  // A name written wholly in other scripts keeps a readable stem and stays distinct.
  if (!/[a-zA-Z0-9]/.test(cleanTool)) cleanTool = `tool_${hash}`;
  const full = `${mcpToolPrefix(server)}${cleanTool}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  return `${full.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

/** The prefix every tool of a server shares (`mcp__<server>__`), for grants and policy rules. */
export function mcpToolPrefix(server: string): string {
  return `mcp__${sanitizeServerName(server)}__`;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}
