import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMcpManager, type McpManager, type McpManagerOptions } from '../../src/mcp/manager';
import type { McpServerStatus } from '../../src/mcp/types';
import type { AnyTool } from '../../src/tools/types';
import { fixtureServer, isAlive, tempDir, testContext } from './helpers';

const managers: McpManager[] = [];
function manager(options: McpManagerOptions): McpManager {
  const m = createMcpManager({ startTimeoutMs: 20_000, ...options });
  managers.push(m);
  return m;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

function tool(m: McpManager, name: string): AnyTool {
  const found = m.tools().find((t) => t.name === name);
  if (!found)
    throw new Error(
      `no tool ${name}; have ${m
        .tools()
        .map((t) => t.name)
        .join(', ')}`,
    );
  return found;
}

describe('MCP manager with the fixture server', () => {
  it('starts, lists tools with names and schemas, and skips an invalid schema with a warning', async () => {
    const events: McpServerStatus[] = [];
    const m = manager({ servers: { fx: fixtureServer() }, onStatus: (s) => events.push(s) });
    await m.start();
    const [status] = m.status();
    expect(status).toMatchObject({ name: 'fx', status: 'ready', tools: 8 });
    expect(status?.pid).toBeTypeOf('number');
    expect(status?.stderrTail).toContain('fixture: ready');
    expect(m.tools().map((t) => t.name)).toEqual([
      'mcp__fx__echo',
      'mcp__fx__delete_everything',
      'mcp__fx__crash',
      'mcp__fx__media',
      'mcp__fx__fail',
      'mcp__fx__big',
      'mcp__fx__slow',
      'mcp__fx__dotted_name_with_spaces',
    ]);
    expect(status?.warnings).toEqual([
      'Skipped tool "bad_schema" from MCP server "fx": its input schema is invalid (Unsupported type: nonsense).',
    ]);
    expect(events.map((e) => e.status)).toEqual(['starting', 'ready']);
    expect(events.at(-1)?.warnings).toHaveLength(1);

    const echo = tool(m, 'mcp__fx__echo');
    expect(echo.kind).toBe('execute');
    expect(echo.description).toBe('[MCP server "fx"] Echoes the text back.');
    expect(echo.parameters).toEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(echo.schema.safeParse({ text: 'hi' }).success).toBe(true);
    expect(echo.schema.safeParse({}).success).toBe(false);
    expect(echo.schema.safeParse({ text: 3 }).success).toBe(false);
  });

  it('calls echo and formats every kind of result', async () => {
    const m = manager({ servers: { fx: fixtureServer() } });
    await m.start();
    const ctx = testContext();
    expect(await tool(m, 'mcp__fx__echo').execute({ text: 'hello' }, ctx)).toEqual({
      ok: true,
      output: 'hello',
    });
    expect(await tool(m, 'mcp__fx__media').execute({}, ctx)).toEqual({
      ok: true,
      output:
        'here:\n[image: image/png, 300 bytes]\n[resource: file:///notes.txt (text/plain)]\nnote body\n' +
        '[resource: file:///blob.bin (application/octet-stream), 3 bytes]\n[resource link: file:///linked.md (linked)]',
    });
    expect(await tool(m, 'mcp__fx__fail').execute({}, ctx)).toEqual({
      ok: false,
      error: 'the thing is broken',
    });
    const big = await tool(m, 'mcp__fx__big').execute({}, ctx);
    expect(big.ok && big.output.endsWith('[Cut: 12000 more characters not shown.]')).toBe(true);
    expect(await tool(m, 'mcp__fx__dotted_name_with_spaces').execute({}, ctx)).toEqual({
      ok: true,
      output: 'ran dotted.name with spaces',
    });
  });

  it('runs delete_everything only when its executor is called (the marker the gate tests rely on)', async () => {
    const marker = join(tempDir(), 'deleted');
    const m = manager({ servers: { fx: fixtureServer({ FIXTURE_MARKER: marker }) } });
    await m.start();
    expect(existsSync(marker)).toBe(false);
    await tool(m, 'mcp__fx__delete_everything').execute({ path: '/' }, testContext());
    expect(readFileSync(marker, 'utf8')).toBe('deleted /\n');
  });

  it('honours the task signal', async () => {
    const m = manager({ servers: { fx: fixtureServer() } });
    await m.start();
    const controller = new AbortController();
    const pending = tool(m, 'mcp__fx__slow').execute({}, testContext(controller.signal));
    controller.abort();
    expect(await pending).toEqual({ ok: false, error: 'The call to slow on MCP server "fx" was cancelled.' });
    expect(m.status()[0]?.status).toBe('ready');
  });

  it('fails quickly, with the error, when the command does not exist; the others still start', async () => {
    const m = manager({
      servers: { missing: { command: 'warden-no-such-command-9f3c' }, fx: fixtureServer() },
    });
    const started = Date.now();
    await m.start();
    const [missing, fx] = m.status();
    expect(missing).toMatchObject({ name: 'missing', status: 'failed', tools: 0 });
    expect(missing?.error).toMatch(/ENOENT/);
    expect(fx?.status).toBe('ready');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(m.tools().every((t) => t.name.startsWith('mcp__fx__'))).toBe(true);
  });

  it('fails a server that hangs on start after the timeout, and kills it', async () => {
    const pidFile = join(tempDir(), 'pid');
    // A plain node process, not the tsx fixture: loading TypeScript can take longer than the start
    // timeout on a loaded machine, and a server killed before it wrote its pid proves nothing here.
    const hang = `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1e9);`;
    const m = manager({
      servers: { slow: { command: process.execPath, args: ['-e', hang], env: {} } },
      startTimeoutMs: 1_500,
    });
    await m.start();
    expect(m.status()[0]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^The server did not start within 1\.5 s\./),
    });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(pid)).toBe(false);
  });

  it('reports a crash mid-call clearly, marks the server failed, and restarts it', async () => {
    const events: McpServerStatus[] = [];
    const m = manager({ servers: { fx: fixtureServer() }, onStatus: (s) => events.push(s) });
    await m.start();
    const crash = tool(m, 'mcp__fx__crash');
    const echo = tool(m, 'mcp__fx__echo');
    const oldPid = m.status()[0]?.pid as number;
    const result = await crash.execute({}, testContext());
    expect(result).toMatchObject({ ok: false });
    if (!result.ok)
      expect(result.error).toMatch(/^MCP server "fx" stopped while running crash; the call did not complete/);
    const status = m.status()[0];
    expect(status).toMatchObject({ status: 'failed', tools: 0 });
    expect(status?.error).toMatch(/during a call to crash/);
    expect(status?.stderrTail).toContain('fixture: crashing now');
    expect(m.tools()).toEqual([]);
    expect(await echo.execute({ text: 'x' }, testContext())).toMatchObject({
      ok: false,
      error: expect.stringContaining('is not running'),
    });
    await vi.waitFor(() => expect(isAlive(oldPid)).toBe(false));

    await m.restart('fx');
    expect(m.status()[0]).toMatchObject({ status: 'ready', tools: 8 });
    expect(m.status()[0]?.pid).not.toBe(oldPid);
    // A tool object from before the restart reaches the new process.
    expect(await echo.execute({ text: 'again' }, testContext())).toEqual({ ok: true, output: 'again' });
    expect(events.map((e) => e.status)).toEqual(['starting', 'ready', 'failed', 'starting', 'ready']);
  });

  it('restarts a healthy server, stopping the old process', async () => {
    const m = manager({ servers: { fx: fixtureServer() } });
    await m.start();
    const before = m.status()[0]?.pid as number;
    await m.restart('fx');
    expect(isAlive(before)).toBe(false);
    expect(m.status()[0]).toMatchObject({ status: 'ready' });
    await expect(m.restart('nope')).rejects.toThrow('No MCP server is configured as "nope".');
  });

  it('close leaves no child process alive', async () => {
    const pidFile = join(tempDir(), 'pid');
    const m = manager({
      servers: {
        a: fixtureServer(),
        b: fixtureServer(),
        hang: fixtureServer({ FIXTURE_MODE: 'hang', FIXTURE_PIDFILE: pidFile }),
      },
      startTimeoutMs: 20_000,
    });
    const starting = m.start();
    await vi.waitFor(() => expect(m.status().filter((s) => s.status === 'ready')).toHaveLength(2), {
      timeout: 20_000,
    });
    await vi.waitFor(() => expect(existsSync(pidFile)).toBe(true));
    const pids = [
      ...m.status().flatMap((s) => (s.pid ? [s.pid] : [])),
      Number(readFileSync(pidFile, 'utf8')),
    ];
    expect(pids).toHaveLength(3);
    await m.close();
    await starting;
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(m.tools()).toEqual([]);
    expect(m.status().every((s) => s.status === 'failed')).toBe(true);
  });

  it('refuses to start a second server whose tool names would collide with the first', async () => {
    const m = manager({
      servers: { 'my server': { command: 'warden-no-such-command-9f3c' }, 'my.server': fixtureServer() },
    });
    await m.start();
    expect(m.status()[1]).toMatchObject({
      name: 'my.server',
      status: 'failed',
      error:
        'Not started: its tools would be named mcp__my_server__*, like those of server "my server"; rename one of them.',
    });
  });

  it('ignores disabled servers', async () => {
    const m = manager({ servers: { off: { command: 'warden-no-such-command-9f3c', disabled: true } } });
    await m.start();
    expect(m.status()).toEqual([]);
  });

  it('hashes a server config stably', () => {
    const m = manager({
      servers: {
        a: { command: 'x', args: ['1'], env: { B: '2', A: '1' } },
        b: { url: 'http://127.0.0.1:1/mcp' },
      },
    });
    const same = createMcpManager({ servers: { a: { env: { A: '1', B: '2' }, args: ['1'], command: 'x' } } });
    expect(m.configHash('a')).toMatch(/^[0-9a-f]{64}$/);
    expect(m.configHash('a')).toBe(same.configHash('a'));
    expect(m.configHash('a')).not.toBe(m.configHash('b'));
    expect(m.configHash('zzz')).toBeUndefined();
  });
});
