import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpStdioServerConfig } from '../../src/mcp/types';
import type { ToolContext } from '../../src/tools/types';
import { makeToolContext } from '../helpers/tool-context';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** The fixture MCP server, run with the same node through tsx. */
export function fixtureServer(env: Record<string, string> = {}): McpStdioServerConfig {
  return {
    command: process.execPath,
    args: ['--import', 'tsx', join(repo, 'test/fixtures/mcp-server.ts')],
    cwd: repo,
    env,
  };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'warden-mcp-'));
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A ToolContext on a throw-away project directory (see test/helpers/tool-context.ts). */
export function testContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return makeToolContext({ prefix: 'warden-mcp-', signal }).ctx;
}
