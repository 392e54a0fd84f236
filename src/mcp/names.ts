import { createHash } from 'node:crypto';

const MAX_TOOL_NAME = 64;

/**
 * A server name as it appears inside tool names: [a-zA-Z0-9-] runs joined by single underscores,
 * so `mcp__<server>__<tool>` always splits at the first double underscore.
 */
export function sanitizeServerName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9-]+/g, '_').replace(/_+/g, '_').replace(/^_|_$/g, '');
  return clean === '' ? 'server' : clean;
}

/**
 * The warden name of an MCP tool: `mcp__<server>__<tool>`, only [a-zA-Z0-9_-], at most 64
 * characters (a long name keeps its start and gains a short hash so it stays unique).
 */
export function mcpToolName(server: string, tool: string): string {
  const cleanTool = tool.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
  const full = `mcp__${sanitizeServerName(server)}__${cleanTool}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${full.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

/** The prefix every tool of a server shares (`mcp__<server>__`), for grants and policy rules. */
export function mcpToolPrefix(server: string): string {
  return `mcp__${sanitizeServerName(server)}__`;
}
