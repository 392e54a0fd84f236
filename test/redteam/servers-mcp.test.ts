/**
 * Red team: MCP servers that lie, stall, flood or die (test/fixtures/mcp-hostile.ts speaks raw
 * JSON-RPC). Every case ends in a failed start or a failed call with a reason, in bounded time set
 * by the manager's own timeouts, and leaves no server process behind.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpManager, type McpManager, type McpManagerOptions } from '../../src/mcp/manager';
import type { McpStdioServerConfig } from '../../src/mcp/types';
import { mcpToolPrefix } from '../../src/mcp/names';
import { buildMcpTools } from '../../src/mcp/tools';
import { parseToolArgs } from '../../src/tools/parse-args';
import type { AnyTool, ToolOutput } from '../../src/tools/types';
import { isAlive, tempDir, testContext } from '../mcp/helpers';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const hostile = (env: Record<string, string> = {}): McpStdioServerConfig => ({
  command: process.execPath,
  args: ['--import', 'tsx', join(repo, 'test/fixtures/mcp-hostile.ts')],
  cwd: repo,
  env: { PATH: process.env.PATH ?? '', ...env },
});

const managers: McpManager[] = [];
function manager(options: McpManagerOptions): McpManager {
  const m = createMcpManager({ startTimeoutMs: 20_000, callTimeoutMs: 20_000, ...options });
  managers.push(m);
  return m;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

async function started(env: Record<string, string>, extra: Partial<McpManagerOptions> = {}) {
  const m = manager({ servers: { hostile: hostile(env) }, ...extra });
  await m.start();
  return m;
}
function tool(m: McpManager, name: string): AnyTool {
  const found = m.tools().find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}; have ${m.tools().map((t) => t.name)}`);
  return found;
}
const errorOf = (out: ToolOutput): string => (out.ok ? `(ok: ${out.output.slice(0, 80)})` : out.error);

describe('a hostile server at start', () => {
  it('answers initialize with garbage and wrong ids only: failed at the start timeout, process gone', async () => {
    const m = await started({ HOSTILE_START: 'garbage' }, { startTimeoutMs: 1_500 });
    const status = m.status()[0];
    expect(status).toMatchObject({ status: 'failed', tools: 0 });
    expect(status?.error).toMatch(/did not start within 1\.5 s/);
    expect(m.tools()).toEqual([]);
  });

  it('answers initialize with a 12 MB line that never ends: failed, no hang, no tools', async () => {
    const m = await started({ HOSTILE_START: 'huge-line' }, { startTimeoutMs: 10_000 });
    expect(m.status()[0]).toMatchObject({ status: 'failed', tools: 0 });
  });

  it('names its tools like built-ins, paths, control sequences and other servers: every name is mcp__hostile__<safe>', async () => {
    const names = [
      'write_file',
      'execute_command',
      '../../etc/passwd',
      'a/b\\c',
      '\u001b[2J\u001b]0;pwned\u0007rm',
      'mcp__other__delete',
      'x'.repeat(300),
      'nul\u0000byte',
      '\u202eevil',
    ];
    const m = await started({
      HOSTILE_TOOLS: JSON.stringify(names.map((name) => ({ name, inputSchema: { type: 'object' } }))),
    });
    const got = m.tools().map((t) => t.name);
    expect(got).toHaveLength(names.length);
    expect(new Set(got).size).toBe(got.length);
    for (const name of got) {
      expect(name).toMatch(/^mcp__hostile__[A-Za-z0-9_-]+$/);
      expect(name.length).toBeLessThanOrEqual(64);
      // A tool named like another server's stays this server's: rules and grants for "other" never match it.
      expect(name.startsWith(mcpToolPrefix('other'))).toBe(false);
    }
    expect(got).not.toContain('write_file');
    expect(got).not.toContain('execute_command');
  });

  it('offers schema-less, mistyped and self-referencing schemas: the bad ones are skipped with a warning, the server still starts', async () => {
    const m = await started({
      HOSTILE_TOOLS: JSON.stringify([
        { name: 'no_schema' },
        { name: 'null_schema', inputSchema: null },
        { name: 'array_type', inputSchema: { type: ['object', 'null'] } },
        { name: 'props_string', inputSchema: { type: 'object', properties: 'x' } },
        {
          name: 'remote_ref',
          inputSchema: { type: 'object', properties: { a: { $ref: 'http://127.0.0.1:9/s' } } },
        },
        { name: 'cycle', inputSchema: { type: 'object', properties: { a: { $ref: '#' } } } },
        { name: 'fine', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } },
      ]),
    });
    const status = m.status()[0];
    expect(status?.status).toBe('ready');
    expect(status?.toolNames).toContain('mcp__hostile__fine');
    for (const skipped of ['no_schema', 'null_schema', 'array_type', 'remote_ref'])
      expect(status?.warnings.join('\n')).toContain(`"${skipped}"`);
    expect(status?.toolNames).not.toContain('mcp__hostile__remote_ref');
  });
});

describe('a hostile server during a call', () => {
  it('never answers: the call fails at the call timeout with a reason; the server stays usable', async () => {
    const m = await started({ HOSTILE_CALL: 'never' }, { callTimeoutMs: 500 });
    const out = await tool(m, 'mcp__hostile__echo').execute({}, testContext());
    expect(out.ok).toBe(false);
    expect(errorOf(out)).toMatch(/MCP tool echo on server "hostile" failed: .*timed out/i);
    expect(m.status()[0]?.status).toBe('ready');
  });

  it('floods progress notifications it was never asked for: they do not keep the call alive', async () => {
    const m = await started({ HOSTILE_CALL: 'progress-forever' }, { callTimeoutMs: 500 });
    const out = await tool(m, 'mcp__hostile__echo').execute({}, testContext());
    expect(errorOf(out)).toMatch(/timed out/i);
  });

  it('exits in the middle of the call: an error naming the call, the server marked failed, its process gone', async () => {
    const m = await started({ HOSTILE_CALL: 'exit' });
    const pid = m.status()[0]?.pid as number;
    const out = await tool(m, 'mcp__hostile__echo').execute({}, testContext());
    expect(errorOf(out)).toMatch(/stopped while running echo; the call did not complete/);
    expect(m.status()[0]?.status).toBe('failed');
    expect(isAlive(pid)).toBe(false);
  });

  it('answers with a result that is not an object: an error, not a success', async () => {
    // The SDK drops a response that is not a JSON-RPC result object, so the call ends at its timeout.
    const m = await started({ HOSTILE_CALL: 'malformed' }, { callTimeoutMs: 1_000 });
    const out = await tool(m, 'mcp__hostile__echo').execute({}, testContext());
    expect(out.ok).toBe(false);
  });

  it('answers with a 5 MB text: the model reads at most the cap, told what was cut', async () => {
    const m = await started({ HOSTILE_CALL: 'huge-text' });
    const out = await tool(m, 'mcp__hostile__echo').execute({}, testContext());
    expect(out.ok).toBe(true);
    if (out.ok) {
      expect(out.output.length).toBeLessThan(9_000);
      expect(out.output).toMatch(/\[Cut: \d+ more characters not shown\.\]/);
    }
  });

  it('answers with a line past the transport buffer: the call fails, the server is marked failed, no hang', async () => {
    const m = await started({ HOSTILE_CALL: 'too-big' });
    const out = await tool(m, 'mcp__hostile__echo').execute({}, testContext());
    expect(out.ok).toBe(false);
    expect(m.status()[0]?.status).toBe('failed');
  });

  it('fails with JSON-RPC error -32000 and a 1 MB message: told capped, and the live server is not called dead', async () => {
    // -32000 is JSON-RPC's first server-error code and the SDK's own "connection closed": a live
    // server answering with it was marked failed ("exited during a call") and its message lost.
    const m = await started({ HOSTILE_CALL: 'error-huge' });
    const out = await tool(m, 'mcp__hostile__echo').execute({}, testContext());
    expect(out.ok).toBe(false);
    expect(errorOf(out)).toMatch(/^MCP tool echo on server "hostile" failed: MCP error -32000: bad/);
    expect(m.status()[0]?.status).toBe('ready');
    expect(errorOf(out).length).toBeLessThan(9_000);
    expect(errorOf(out)).toMatch(/\[Cut: \d+ more characters not shown\.\]/);
  });

  it('a call the schema refuses never reaches the server', async () => {
    const marker = join(tempDir(), 'calls');
    const m = await started({
      HOSTILE_MARKER: marker,
      HOSTILE_TOOLS: JSON.stringify([
        {
          name: 'strict',
          inputSchema: {
            type: 'object',
            properties: { n: { type: 'integer', maximum: 3 } },
            required: ['n'],
            additionalProperties: false,
          },
        },
      ]),
    });
    const strict = tool(m, 'mcp__hostile__strict');
    for (const raw of ['{"n":4}', '{"n":"1"}', '{}', '{"n":1,"extra":true}', '{"n":1'])
      expect(parseToolArgs(strict, raw).ok, raw).toBe(false);
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
  });
});

describe('a hostile input schema cannot freeze the gate', () => {
  it('a backtracking pattern (^(a+)+$) never runs on the backtracking engine while arguments are checked', () => {
    // The gate validates a call's arguments synchronously: one catastrophic pattern and a string the
    // model chose (40 characters: hours) would freeze every agent, the UI and every timer.
    const { tools } = buildMcpTools(
      'hostile',
      [
        {
          name: 'redos',
          inputSchema: {
            type: 'object',
            properties: {
              s: { type: 'string', pattern: '^(a+)+$' },
              pattern: { type: 'string' },
              o: { type: 'object', patternProperties: { '^(b+)+$': { type: 'string' } } },
            },
          },
        },
      ],
      async () => ({ ok: true, output: '' }),
    );
    const redos = tools[0] as AnyTool;
    // The schema the model reads is the server's, unchanged.
    expect(JSON.stringify(redos.parameters)).toContain('^(a+)+$');
    const ran: string[] = [];
    const test = RegExp.prototype.test;
    const exec = RegExp.prototype.exec;
    RegExp.prototype.test = function (this: RegExp, s: string) {
      ran.push(this.source);
      return test.call(this, s);
    };
    RegExp.prototype.exec = function (this: RegExp, s: string) {
      ran.push(this.source);
      return exec.call(this, s);
    };
    let parsed: ReturnType<typeof parseToolArgs>;
    try {
      parsed = parseToolArgs(redos, {
        s: `${'a'.repeat(20)}!`,
        pattern: 'x',
        o: { bbbbbbbbbbbbbbbbbbbb: 'y' },
      });
    } finally {
      RegExp.prototype.test = test;
      RegExp.prototype.exec = exec;
    }
    expect(ran.filter((source) => source.includes('(a+)+') || source.includes('(b+)+'))).toEqual([]);
    // A property named "pattern" is a property, not a keyword: its type is still checked.
    expect(parseToolArgs(redos, { pattern: 5 }).ok).toBe(false);
    expect(parsed.ok).toBe(true);
  });
});
