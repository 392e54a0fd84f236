/**
 * One write_file or edit_file call through the gate, as the agent loop makes it (the tool card's
 * summary of the model's raw JSON, then the intercept): the arguments are parsed by the tool's schema
 * once, and the target is read once for the card and once when the approved call runs (the tool's
 * own read, which it holds to the card — the executor reads nothing more).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEditFileTool } from '../../src/tools/fs/edit-file';
import { createWriteFileTool } from '../../src/tools/fs/write-file';
import type { AnyTool } from '../../src/tools/types';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

const reads = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock('../../src/tools/fs/safe-fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/tools/fs/safe-fs')>();
  return {
    ...real,
    readFileSafely: (target: { path: string }, max: number) => {
      reads.paths.push(target.path);
      return real.readFileSafely(target as never, max);
    },
  };
});

/** The tool with its schema's parses counted. */
function counted(tool: AnyTool): { tool: AnyTool; parses: () => number } {
  let parses = 0;
  const schema = tool.schema;
  const wrapped = new Proxy(schema, {
    get: (target, key) =>
      key === 'safeParse'
        ? (value: unknown) => {
            parses++;
            return target.safeParse(value);
          }
        : Reflect.get(target, key),
  });
  return { tool: { ...tool, schema: wrapped }, parses: () => parses };
}

let h: GateHarness | undefined;
afterEach(() => {
  h?.cleanup();
  h = undefined;
  reads.paths.length = 0;
});

describe('one call, one parse, one read per phase', () => {
  it.each([
    ['write_file', createWriteFileTool(), { path: 'a.txt', content: 'new\n' }],
    ['edit_file', createEditFileTool(), { path: 'a.txt', edits: [{ old_string: 'old', new_string: 'new' }] }],
  ] as const)('%s asked and approved', async (name, tool, args) => {
    const { tool: probe, parses } = counted(tool);
    h = createGateHarness({ tools: [probe] });
    h.write('a.txt', 'old\n');
    const target = `${h.root}/a.txt`;
    const raw = JSON.stringify(args);
    expect(h.gate.summary(name, raw)).toContain('a.txt');
    const result = h.call(name, raw);
    const request = await h.nextRequest();
    const atCard = reads.paths.filter((p) => p === target).length;
    h.gate.decide(request.id, { kind: 'approve' });
    expect(await result).toMatchObject({ status: 'executed' });
    expect(h.read('a.txt')).toBe('new\n');
    expect(parses()).toBe(1);
    expect(atCard).toBe(1);
    expect(reads.paths.filter((p) => p === target)).toHaveLength(2);
  });

  it('a summary parse is taken once: the next call with the same text parses again', async () => {
    const { tool: probe, parses } = counted(createWriteFileTool());
    h = createGateHarness({ tools: [probe], mode: 'auto-edit' });
    const raw = JSON.stringify({ path: 'b.txt', content: 'x' });
    h.gate.summary('write_file', raw);
    expect(await h.call('write_file', raw)).toMatchObject({ status: 'executed' });
    expect(await h.call('write_file', raw)).toMatchObject({ status: 'executed' });
    expect(parses()).toBe(2);
  });

  it('invalid arguments seen by the summary are refused by the gate with the same error', async () => {
    const { tool: probe, parses } = counted(createWriteFileTool());
    h = createGateHarness({ tools: [probe] });
    const raw = JSON.stringify({ path: 5 });
    expect(h.gate.summary('write_file', raw)).toBe(h.gate.summary('write_file', { path: 5 }));
    h.gate.summary('write_file', raw);
    expect(await h.call('write_file', raw)).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/invalid arguments — path: expected string/),
    });
    expect(parses()).toBe(3);
  });
});
