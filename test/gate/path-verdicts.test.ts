/**
 * The gate hands a tool the fence's verdicts on its declared path arguments — the ones the executor
 * checked the guards on at execution time — so tools do not resolve their paths again (issue 12).
 * A tool called without them (outside the gate) falls back to the fence.
 */
import { mkdirSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createReadFileTool } from '../../src/tools/fs/read-file';
import { defineTool, fencedPath, type ToolContext } from '../../src/tools/types';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';
import { makeToolContext, type TestToolContext } from '../helpers/tool-context';

let h: GateHarness | undefined;
let t: TestToolContext | undefined;
afterEach(() => {
  h?.cleanup();
  t?.cleanup();
  h = undefined;
  t = undefined;
});

/** A tool that keeps the context it was run with. */
const peek = (kind: 'read' | 'write', seen: ToolContext[]) =>
  defineTool({
    name: 'peek_path',
    description: 'Records its context.',
    schema: z.strictObject({ path: z.string() }),
    kind,
    guarded: { paths: ['path'] },
    async execute(args, ctx) {
      seen.push(ctx);
      const verdict = fencedPath(ctx, 'path', args.path);
      return verdict.ok ? { ok: true, output: verdict.relative } : { ok: false, error: verdict.reason };
    },
  });

describe('path verdicts on the tool context', () => {
  it('a tool receives the verdict the gate made, keyed by argument field', async () => {
    const seen: ToolContext[] = [];
    h = createGateHarness({ tools: [peek('write', seen)] });
    h.write('src/a.ts', 'x');
    const result = h.call('peek_path', { path: 'src/a.ts' });
    h.gate.decide((await h.nextRequest()).id, { kind: 'approve' });
    expect(await result).toMatchObject({ status: 'executed', output: 'src/a.ts' });
    expect(seen[0]?.paths).toEqual({ path: h.fence.check('src/a.ts') });
    expect(Object.isFrozen(seen[0]?.paths)).toBe(true);
  });

  it('after a person’s wait the verdict is the one re-made at execution time', async () => {
    const seen: ToolContext[] = [];
    h = createGateHarness({ tools: [peek('write', seen)] });
    mkdirSync(join(h.root, 'a'));
    mkdirSync(join(h.root, 'b'));
    symlinkSync('a', join(h.root, 'link'));
    const result = h.call('peek_path', { path: 'link/f.txt' });
    const request = await h.nextRequest();
    // While the card waits, the link is turned to another folder: the tool must get where it points now.
    unlinkSync(join(h.root, 'link'));
    symlinkSync('b', join(h.root, 'link'));
    h.gate.decide(request.id, { kind: 'approve' });
    expect(await result).toMatchObject({ status: 'executed', output: 'b/f.txt' });
    expect(seen[0]?.paths?.path).toMatchObject({ ok: true, path: join(h.root, 'b', 'f.txt') });
  });

  it('read_file through the gate does not resolve its path a second time', async () => {
    h = createGateHarness({ tools: [createReadFileTool()] });
    h.write('notes.md', 'hello\n');
    const check = vi.spyOn(h.fence, 'check');
    const result = await h.call('read_file', { path: 'notes.md' });
    expect(result.status).toBe('executed');
    expect(result.output).toContain('hello');
    // Once for the gate's facts (allowed in this same turn, so the executor reuses them); none in the tool.
    expect(check.mock.calls.map((c) => c[0])).toEqual(['notes.md']);
  });

  it('without verdicts (a tool called directly) the fence is asked; with one, the fence is not', async () => {
    t = makeToolContext({ files: { 'a.txt': 'x' } });
    const check = vi.spyOn(t.ctx.fence, 'check');
    expect(fencedPath(t.ctx, 'path', 'a.txt')).toEqual({
      ok: true,
      path: join(t.root, 'a.txt'),
      relative: 'a.txt',
    });
    expect(check).toHaveBeenCalledTimes(1);
    expect(fencedPath(t.ctx, 'path', '../outside')).toMatchObject({ ok: false, ruleId: 'path-fence' });
    const given = { ok: true as const, path: join(t.root, 'a.txt'), relative: 'a.txt' };
    check.mockClear();
    expect(fencedPath({ ...t.ctx, paths: { path: given } }, 'path', 'a.txt')).toBe(given);
    expect(check).not.toHaveBeenCalled();
    // A field the gate gave no verdict for still goes to the fence.
    expect(fencedPath({ ...t.ctx, paths: { path: given } }, 'cwd', '.')).toMatchObject({
      ok: true,
      relative: '',
    });
    expect(check).toHaveBeenCalledTimes(1);
  });
});
