import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createCoreTools } from '../../src/tools/index';
import { parseToolArgs } from '../../src/tools/parse-args';
import { createReadFileTool } from '../../src/tools/read-file';

const readFile = createReadFileTool();

describe('parseToolArgs', () => {
  it('accepts an object or JSON text', () => {
    expect(parseToolArgs(readFile, { path: 'a.ts' })).toEqual({ ok: true, args: { path: 'a.ts' } });
    expect(parseToolArgs(readFile, '{"path":"a.ts","offset":3}')).toEqual({ ok: true, args: { path: 'a.ts', offset: 3 } });
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

  it('lists the seven core tools with unique snake_case names', () => {
    expect(tools.map((t) => t.name)).toEqual(['read_file', 'list_dir', 'glob_files', 'grep_code', 'write_file', 'execute_command', 'create_project']);
  });

  it('export to JSON Schema with every field described, descriptions lean', () => {
    let total = 0;
    for (const tool of tools) {
      const json = z.toJSONSchema(tool.schema, { io: 'input' }) as { $schema?: string; additionalProperties?: boolean; properties: Record<string, { description?: string }> };
      // Sent the way the gate sends it (src/gate/specs.ts): without $schema and additionalProperties.
      delete json.$schema;
      delete json.additionalProperties;
      for (const [field, prop] of Object.entries(json.properties)) {
        expect(prop.description, `${tool.name}.${field}`).toBeTruthy();
      }
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(300);
      total += tool.name.length + tool.description.length + JSON.stringify(json).length;
    }
    // The system prompt and every other tool share the 6 000-character budget.
    expect(total).toBeLessThan(3600);
  });
});
