/**
 * A headless run has no /mcp panel and no second prompt: the configured MCP servers must be up
 * before its first request, or their tools are never offered. This waits for them, bounded, and
 * words one line per server for stderr.
 */
import type { CoreState } from '../protocol';
import { formatMsOrSeconds } from '../text/duration';

/** Longer than the manager's own per-server start timeout (30 s), so a server's own error wins. */
export const HEADLESS_MCP_WAIT_MS = 35_000;

type ServerLine = CoreState['mcp'][number];

/**
 * Waits for `started` (every server ready, failed or held) for at most `timeoutMs`, then describes
 * each server from `status()`.
 * Contract: never rejects; resolves within about `timeoutMs`; one line per configured server.
 */
export async function awaitMcpServers(
  started: Promise<void>,
  status: () => readonly ServerLine[],
  timeoutMs: number = HEADLESS_MCP_WAIT_MS,
): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await Promise.race([started.catch(() => {}), late]);
  } finally {
    clearTimeout(timer);
  }
  return status().map((s) => describe(s, timeoutMs));
}

function describe(s: ServerLine, waitedMs: number): string {
  const name = `MCP server "${s.name}"`;
  if (s.status === 'ready')
    return `${name}: ready, ${s.tools} tool${s.tools === 1 ? '' : 's'} offered to the model.`;
  if (s.status === 'failed')
    return `${name}: not started, its tools are not offered: ${s.error ?? 'no reason given'}`;
  const waited = formatMsOrSeconds(waitedMs);
  return `${name}: still starting after ${waited}; its tools are not offered to this run.`;
}
