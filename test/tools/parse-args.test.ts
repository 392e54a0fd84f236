import { describe, expect, it } from 'vitest';
import { toolSpecs } from '../../src/gate/specs';
import { createCoreTools } from '../../src/tools/index';
import { parseToolArgs } from '../../src/tools/parse-args';
import { createReadFileTool } from '../../src/tools/fs/read-file';

const readFile = createReadFileTool();

describe('parseToolArgs', () => {
  it('accepts an object or JSON text', () => {
    expect(parseToolArgs(readFile, { path: 'a.ts' })).toEqual({ ok: true, args: { path: 'a.ts' } });
    expect(parseToolArgs(readFile, '{"path":"a.ts","offset":3}')).toEqual({
      ok: true,
      args: { path: 'a.ts', offset: 3 },
    });
  });

  it.each([
    [{ path: 3 }, 'path: expected string, received number'],
    [{ path: 'a', offset: 0 }, 'offset:'],
    [{ path: 'a', limit: 2001 }, 'limit:'],
    [{ path: 'a', offset: 1.5 }, 'offset:'],
    [{ path: 'a', extra: true }, 'Unrecognized key: "extra"'],
    [null, 'arguments: expected object, received null'],
  ])('names the field for %j', (raw, expected) => {
    const result = parseToolArgs(readFile, raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(expected);
  });

  it('refuses invalid JSON instead of treating it as {}', () => {
    for (const raw of ['{"path": ', '', 'not json']) {
      const result = parseToolArgs(readFile, raw);
      expect(result).toMatchObject({ ok: false });
      if (!result.ok) expect(result.error).toMatch(/not valid JSON/);
    }
  });

  it('reports several bad fields at once', () => {
    const tool = createCoreTools().find((t) => t.name === 'execute_command');
    if (!tool) throw new Error('execute_command missing');
    const result = parseToolArgs(tool, { command: 1, timeout_ms: 700_000 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain('command: expected string');
      expect(result.error).toContain('timeout_ms:');
    }
  });
});

describe('tool schemas', () => {
  const tools = createCoreTools();

  it('lists the eight core tools with unique snake_case names', () => {
    expect(tools.map((t) => t.name)).toEqual([
      'read_file',
      'list_dir',
      'glob_files',
      'grep_code',
      'edit_file',
      'write_file',
      'execute_command',
      'create_project',
    ]);
  });

  it('export to JSON Schema with lean descriptions that name the other tool to use', () => {
    for (const [tool, spec] of tools.map((t, i) => [t, toolSpecs(tools)[i]] as const)) {
      expect(spec?.parameters.type, tool.name).toBe('object');
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(300);
    }
    expect(tools.find((t) => t.name === 'execute_command')?.description).toMatch(
      /Not for reading files \(read_file\)/,
    );
  });
});
