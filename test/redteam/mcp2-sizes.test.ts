/**
 * Red team, second pass (finding): what one MCP server may add to every model request. A server that
 * listed 10 000 tools, or one tool with a 10 MB schema, was offered whole: each request carried
 * megabytes, and more than the 128 tools most endpoints accept, so every request failed.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { toolSpecs } from '../../src/gate/specs';
import { createMcpManager, type McpManager } from '../../src/mcp/manager';
import { buildMcpTools, MAX_MCP_SCHEMA_CHARS, MAX_MCP_TOOLS } from '../../src/mcp/tools';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});
async function started(env: Record<string, string>): Promise<McpManager> {
  const m = createMcpManager({
    servers: {
      h: {
        command: process.execPath,
        args: ['--import', 'tsx', join(repo, 'test/fixtures/mcp-hostile2.ts')],
        cwd: repo,
        env: { PATH: process.env.PATH ?? '', ...env },
      },
    },
    startTimeoutMs: 600_000,
  });
  managers.push(m);
  await m.start();
  return m;
}
const noop = async () => ({ ok: true as const, output: '' });

describe('bounded tool lists', () => {
  it('10 000 tools: the first 500 are offered, the person is told, and a request carries a bounded list', async () => {
    const m = await started({ H2_TOOL_COUNT: '10000' });
    const status = m.status()[0];
    expect(status).toMatchObject({ status: 'ready', tools: MAX_MCP_TOOLS });
    expect(status?.warnings).toEqual([
      `MCP server "h" lists 10000 tools; only the first ${MAX_MCP_TOOLS} are offered to the model.`,
    ]);
    expect(m.tools().map((t) => t.name)[MAX_MCP_TOOLS - 1]).toBe(`mcp__h__t${MAX_MCP_TOOLS - 1}`);
    expect(JSON.stringify(toolSpecs(m.tools())).length).toBeLessThan(100_000);
  });

  it('a 9 MB schema (just under the transport line cap): that tool is skipped with its size, the others kept', async () => {
    const m = await started({ H2_TOOL_COUNT: '3', H2_SCHEMA_BYTES: '9000000' });
    const status = m.status()[0];
    expect(status).toMatchObject({ status: 'ready', toolNames: ['mcp__h__t1', 'mcp__h__t2'] });
    expect(status?.warnings).toEqual([
      `Skipped tool "t0" from MCP server "h": its input schema is 9000071 characters, over the ${MAX_MCP_SCHEMA_CHARS} limit (it would go with every request).`,
    ]);
    expect(JSON.stringify(toolSpecs(m.tools())).length).toBeLessThan(2_000);
  });

  it('the limits are exact: a schema of the limit and the 500th tool are kept; one character or one tool more is not', () => {
    const schemaOf = (chars: number) => {
      const base = { type: 'object', properties: { a: { type: 'string', description: '' } } };
      const pad = chars - JSON.stringify(base).length;
      return { type: 'object', properties: { a: { type: 'string', description: 'd'.repeat(pad) } } };
    };
    const atLimit = buildMcpTools('s', [{ name: 'x', inputSchema: schemaOf(MAX_MCP_SCHEMA_CHARS) }], noop);
    expect(atLimit.tools.map((t) => t.name)).toEqual(['mcp__s__x']);
    const over = buildMcpTools('s', [{ name: 'x', inputSchema: schemaOf(MAX_MCP_SCHEMA_CHARS + 1) }], noop);
    expect(over.tools).toEqual([]);
    const list = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
    const full = buildMcpTools('s', list(MAX_MCP_TOOLS), noop);
    expect(full.warnings).toEqual([]);
    expect(full.tools).toHaveLength(MAX_MCP_TOOLS);
    const more = buildMcpTools('s', list(MAX_MCP_TOOLS + 1), noop);
    expect(more.tools).toHaveLength(MAX_MCP_TOOLS);
    expect(more.warnings).toHaveLength(1);
  });

  it('10 000 malformed tools: the warnings are bounded too (one per tool looked at, plus one)', () => {
    const remote = Array.from({ length: 10_000 }, (_, i) => ({ name: `bad${i}` }));
    const built = buildMcpTools('s', remote, noop);
    expect(built.tools).toEqual([]);
    expect(built.warnings).toHaveLength(MAX_MCP_TOOLS + 1);
  });
});
