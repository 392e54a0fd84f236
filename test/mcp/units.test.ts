import { describe, expect, it } from 'vitest';
import { mcpToolName, mcpToolPrefix, sanitizeServerName } from '../../src/mcp/names';
import { formatToolResult } from '../../src/mcp/result';
import { createStderrTail } from '../../src/mcp/stderr-tail';
import { buildMcpTools } from '../../src/mcp/tools';

describe('MCP tool names', () => {
  it.each([
    ['fs', 'read_file', 'mcp__fs__read_file'],
    ['my server', 'a.b c', 'mcp__my_server__a_b_c'],
    ['__odd__name__', 'x', 'mcp__odd_name__x'],
    ['git-hub', 'list-prs', 'mcp__git-hub__list-prs'],
  ])('%j + %j → %j', (server, tool, expected) => {
    expect(mcpToolName(server, tool)).toBe(expected);
  });

  it('gives a name in another script a readable, distinct stand-in', () => {
    expect(mcpToolName('日本', 'ツール')).toMatch(/^mcp__server-[0-9a-f]{8}__tool_[0-9a-f]{8}$/);
    expect(sanitizeServerName('日本')).not.toBe(sanitizeServerName('中国'));
    expect(mcpToolName('日本', 'ツール')).not.toBe(mcpToolName('日本', '道具'));
  });

  it('keeps long names at 64 characters and distinct', () => {
    const a = mcpToolName('server', `${'x'.repeat(80)}_a`);
    const b = mcpToolName('server', `${'x'.repeat(80)}_b`);
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
  });

  it('never puts a double underscore inside the server part, so the policy can split the name', () => {
    for (const server of [
      'a__b',
      '_a_',
      'a.__.b',
      'x',
      'a'.repeat(80),
      `${'b'.repeat(14)}__c${'d'.repeat(20)}`,
    ]) {
      const name = mcpToolName(server, `do__it${'t'.repeat(60)}`);
      expect(name.length).toBeLessThanOrEqual(64);
      const parsed = /^mcp__([^_]+(?:_[^_]+)*?)__/.exec(name)?.[1];
      expect(parsed).toBe(sanitizeServerName(server));
      expect(name.startsWith(mcpToolPrefix(server))).toBe(true);
    }
  });
});

describe('formatToolResult', () => {
  it('returns structured content as JSON when there are no content parts', () => {
    expect(formatToolResult({ content: [], structuredContent: { n: 1 } })).toEqual({
      ok: true,
      output: '{\n  "n": 1\n}',
      data: { structuredContent: { n: 1 } },
    });
  });

  it('survives malformed results and unknown parts', () => {
    expect(formatToolResult(null)).toEqual({ ok: true, output: '(no output)' });
    expect(
      formatToolResult({
        content: [{ type: 'hologram' }, { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }],
      }),
    ).toEqual({
      ok: true,
      output: '[hologram content]\n[audio: audio/wav, 3 bytes]',
    });
    expect(formatToolResult({ isError: true, content: [] })).toEqual({
      ok: false,
      error: 'The MCP tool reported an error without a message.',
    });
  });

  it('caps long errors too', () => {
    const result = formatToolResult({ isError: true, content: [{ type: 'text', text: 'e'.repeat(9_000) }] });
    expect(result.ok === false && result.error.endsWith('[Cut: 1000 more characters not shown.]')).toBe(true);
  });
});

describe('buildMcpTools', () => {
  const call = async () => ({ ok: true as const, output: '' });

  it('skips malformed descriptions, non-object schemas and colliding names with warnings', () => {
    const { tools, warnings } = buildMcpTools(
      's',
      [
        { name: 'ok', inputSchema: { type: 'object' } },
        { name: 'no_schema' },
        { name: 'string_schema', inputSchema: { type: 'string' } },
        { name: 'o.k', inputSchema: { type: 'object' } },
        { name: 'o k', inputSchema: { type: 'object' } },
        { inputSchema: { type: 'object' } },
      ],
      call,
    );
    expect(tools.map((t) => t.name)).toEqual(['mcp__s__ok', 'mcp__s__o_k']);
    expect(warnings).toEqual([
      'Skipped a tool from MCP server "s" with a malformed description ("no_schema").',
      'Skipped tool "string_schema" from MCP server "s": its input schema is invalid (its type is "string", not "object").',
      'Skipped tool "o k" from MCP server "s": its name collides with another tool as mcp__s__o_k.',
      'Skipped a tool from MCP server "s" with a malformed description (no name).',
    ]);
  });
});

describe('stderr tail', () => {
  it('stays bounded and starts at a line', () => {
    const tail = createStderrTail(100);
    for (let i = 0; i < 1_000; i++) tail.push(`line ${i}\n`);
    expect(tail.text().length).toBeLessThanOrEqual(100);
    expect(tail.text().startsWith('line ')).toBe(true);
    expect(tail.text().endsWith('line 999\n')).toBe(true);
  });
});
