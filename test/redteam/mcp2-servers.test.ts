/**
 * Red team, second pass: MCP servers that flood, babble, ask the client for things, answer with
 * the wrong shape, die or sulk at start (test/fixtures/mcp-hostile2.ts). Each case asserts the safe
 * outcome precisely: the call's own answer or an error with a reason, the server's status, and no
 * process left behind. Timeouts are set far above the test's own, so a case that ends proves it
 * ended for its stated reason, not at a deadline.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMcpManager, type McpManager, type McpManagerOptions } from '../../src/mcp/manager';
import type { McpStdioServerConfig } from '../../src/mcp/types';
import { sanitizeDeep } from '../../src/text/sanitize-deep';
import type { AnyTool, ToolOutput } from '../../src/tools/types';
import { makeToolContext, type TestToolContext } from '../helpers/tool-context';
import { isAlive } from '../mcp/helpers';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const hostile2 = (env: Record<string, string> = {}): McpStdioServerConfig => ({
  command: process.execPath,
  args: ['--import', 'tsx', join(repo, 'test/fixtures/mcp-hostile2.ts')],
  cwd: repo,
  env: { PATH: process.env.PATH ?? '', ...env },
});

const managers: McpManager[] = [];
const contexts: TestToolContext[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  for (const c of contexts.splice(0)) c.cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'warden-mcp2-'));
  dirs.push(d);
  return d;
}
async function started(env: Record<string, string>, extra: Partial<McpManagerOptions> = {}) {
  // Far longer than any test may run: a case that returns did not return at a deadline.
  const m = createMcpManager({
    servers: { h: hostile2(env) },
    startTimeoutMs: 600_000,
    callTimeoutMs: 600_000,
    ...extra,
  });
  managers.push(m);
  await m.start();
  return m;
}
function tool(m: McpManager, name: string): AnyTool {
  const found = m.tools().find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}; status ${JSON.stringify(m.status())}`);
  return found;
}
function call(m: McpManager, args: Record<string, unknown> = { a: 'x' }): Promise<ToolOutput> {
  const made = makeToolContext({ prefix: 'warden-mcp2-' });
  contexts.push(made);
  return tool(m, 'mcp__h__echo').execute(args, made.ctx);
}

describe('a server that floods or babbles during a call', () => {
  it('20 000 notifications (list_changed storm, emergency logs with escapes, progress and cancels for strangers) before the answer: the answer arrives, nothing else changes', async () => {
    const m = await started({ H2_CALL: 'flood' });
    const before = m.tools();
    expect(await call(m)).toEqual({ ok: true, output: '{"a":"x"}' });
    expect(m.status()[0]).toMatchObject({ status: 'ready', tools: 1, warnings: [] });
    // list_changed does not re-list: the tools the person saw are the tools offered.
    expect(m.tools()).toEqual(before);
  });

  it('garbage lines, JSON that is not JSON-RPC, 200 answers to ids never asked and one with the wrong version: the real answer wins', async () => {
    const m = await started({ H2_CALL: 'garbage' });
    expect(await call(m, { a: 'mine' })).toEqual({ ok: true, output: '{"a":"mine"}' });
    expect(m.status()[0]?.status).toBe('ready');
    // The server is still usable for the next call.
    expect(await call(m, { a: 'again' })).toEqual({ ok: true, output: '{"a":"again"}' });
  });

  it('asks the client for sampling, roots and elicitation: each refused as an unknown method, only ping answered; the call completes', async () => {
    const marker = join(tempDir(), 'replies');
    const m = await started({ H2_CALL: 'ask-client', H2_MARKER: marker });
    expect(await call(m)).toEqual({ ok: true, output: '{"a":"x"}' });
    const replies = readFileSync(marker, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; reply: { error?: { code: number }; result?: unknown } });
    const byMethod = Object.fromEntries(replies.map((r) => [r.method, r.reply]));
    for (const method of ['sampling/createMessage', 'roots/list', 'elicitation/create'])
      expect(byMethod[method], method).toMatchObject({ error: { code: -32601 } });
    expect(byMethod.ping).toMatchObject({ result: {} });
  });

  it('a result object whose content is not an array: an error with a reason at once, the server still ready', async () => {
    const m = await started({ H2_CALL: 'bad-content' });
    const out = await call(m);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatch(/^MCP tool echo on server "h" failed: .*content/s);
    expect(m.status()[0]?.status).toBe('ready');
  });
});

describe('a server that will not start', () => {
  it('never answers initialize: failed at the start timeout with the reason, no tools, its process gone', async () => {
    const m = await started({ H2_START: 'silent' }, { startTimeoutMs: 800 });
    expect(m.status()[0]).toMatchObject({
      status: 'failed',
      tools: 0,
      error: 'The server did not start within 0.8 s.',
    });
    expect(m.tools()).toEqual([]);
  });

  it('never answers and ignores SIGTERM and a closed stdin: still failed, and its process is gone afterwards', async () => {
    const m = createMcpManager({
      servers: { h: hostile2({ H2_START: 'silent-stubborn' }) },
      startTimeoutMs: 1_500,
    });
    managers.push(m);
    const starting = m.start();
    // The status carries no pid before a server is ready: find the process by its environment.
    let pids: number[] = [];
    await vi.waitFor(() => {
      pids = stubbornChildren();
      expect(pids.length).toBeGreaterThan(0);
    });
    await starting;
    expect(m.status()[0]).toMatchObject({
      status: 'failed',
      error: 'The server did not start within 1.5 s.',
    });
    for (const pid of pids) expect(isAlive(pid), String(pid)).toBe(false);
  });

  it('exits on initialize: failed at once (not at the 600 s deadline) with its last stderr line, control characters and all shown safely', async () => {
    const m = await started({ H2_START: 'exit' });
    const status = m.status()[0];
    expect(status?.status).toBe('failed');
    expect(status?.error).not.toMatch(/did not start within/);
    expect(status?.error).toMatch(/Last stderr: fatal: no licence key found$/);
    expect(sanitizeDeep(status, 'display')).toEqual(status);
  });
});

/** Processes of this test run still executing the stubborn fixture (Linux /proc; none elsewhere). */
function stubbornChildren(): number[] {
  const found: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
      if (cmdline.includes('mcp-hostile2') && environ.includes('H2_START=silent-stubborn'))
        found.push(Number(entry));
    } catch {
      // Gone or not ours.
    }
  }
  return found;
}
