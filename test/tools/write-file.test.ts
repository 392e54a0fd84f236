import { chmodSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countLineChanges, createWriteFileTool, defaultWriteFileEffects, WRITE_MAX_BYTES } from '../../src/tools/write-file';
import { writeFileSafely } from '../../src/tools/safe-fs';
import { makeToolContext, type TestToolContext } from '../helpers/tool-context';

const tool = createWriteFileTool();
let t: TestToolContext;
afterEach(() => t?.cleanup());

describe('write_file', () => {
  it('creates a new file and its parent folders, recording the pre-image first', async () => {
    t = makeToolContext();
    const result = await tool.execute({ path: 'src/deep/new.ts', content: 'a\nb\n' }, t.ctx);
    expect(result).toMatchObject({ ok: true, data: { isNew: true, added: 2, removed: 0 } });
    expect(readFileSync(join(t.root, 'src/deep/new.ts'), 'utf8')).toBe('a\nb\n');
    expect(t.preImages).toEqual([join(t.root, 'src/deep/new.ts')]);
  });

  it('replaces the whole content atomically, counts lines, leaves no temp file and keeps the mode', async () => {
    t = makeToolContext({ files: { 'run.sh': 'one\ntwo\nthree\n' } });
    chmodSync(join(t.root, 'run.sh'), 0o750);
    const result = await tool.execute({ path: 'run.sh', content: 'one\nTWO\nthree\nfour\n' }, t.ctx);
    expect(result).toMatchObject({ ok: true, data: { isNew: false, added: 2, removed: 1 } });
    expect(readFileSync(join(t.root, 'run.sh'), 'utf8')).toBe('one\nTWO\nthree\nfour\n');
    expect(statSync(join(t.root, 'run.sh')).mode & 0o777).toBe(0o750);
    expect(readdirSync(t.root)).toEqual(['run.sh']);
  });

  it('keeps the original and removes the temp file when the rename fails', async () => {
    t = makeToolContext({ files: { 'keep.txt': 'original\n' } });
    const failing = createWriteFileTool({
      ...defaultWriteFileEffects,
      write: (target, bytes, mode) =>
        writeFileSafely(target, bytes, mode, {
          rename: async () => {
            throw Object.assign(new Error('EXDEV: simulated'), { code: 'EXDEV' });
          },
        }),
    });
    const result = await failing.execute({ path: 'keep.txt', content: 'new\n' }, t.ctx);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('the original is unchanged') });
    expect(readFileSync(join(t.root, 'keep.txt'), 'utf8')).toBe('original\n');
    expect(readdirSync(t.root)).toEqual(['keep.txt']);
  });

  it('does not write when the pre-image cannot be recorded', async () => {
    t = makeToolContext({ files: { 'a.txt': 'old' } });
    t.ctx.recordPreImage = async () => {
      throw new Error('checkpoint store full');
    };
    const result = await tool.execute({ path: 'a.txt', content: 'new' }, t.ctx);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('nothing was written') });
    expect(readFileSync(join(t.root, 'a.txt'), 'utf8')).toBe('old');
  });

  it('accepts 5 MB and refuses one byte more', async () => {
    t = makeToolContext();
    const atCap = await tool.execute({ path: 'cap.txt', content: 'x'.repeat(WRITE_MAX_BYTES) }, t.ctx);
    expect(atCap.ok).toBe(true);
    const over = await tool.execute({ path: 'over.txt', content: 'é'.repeat(WRITE_MAX_BYTES / 2 + 1) }, t.ctx);
    expect(over).toMatchObject({ ok: false, error: expect.stringContaining('at most 5 MB') });
    expect(readdirSync(t.root)).toEqual(['cap.txt']);
  });

  it('refuses writes outside the fence and through a symlink that escapes', async () => {
    t = makeToolContext();
    const outside = t.outsideDir();
    symlinkSync(outside, join(t.root, 'link'));
    for (const path of ['../evil.txt', join(outside, 'evil.txt'), 'link/evil.txt', 'link/sub/evil.txt']) {
      const result = await tool.execute({ path, content: 'x' }, t.ctx);
      expect(result, path).toMatchObject({ ok: false, error: expect.stringContaining('outside the project') });
    }
    expect(readdirSync(outside)).toEqual([]);
    expect(t.preImages).toEqual([]);
  });

  it('refuses a directory and reports an unchanged file without writing', async () => {
    t = makeToolContext({ files: { 'src/a.ts': 'same' } });
    expect(await tool.execute({ path: 'src', content: 'x' }, t.ctx)).toMatchObject({ ok: false, error: expect.stringContaining('is a directory') });
    expect(await tool.execute({ path: 'src/a.ts', content: 'same' }, t.ctx)).toMatchObject({ ok: true, data: { unchanged: true } });
    expect(t.preImages).toEqual([]);
  });

  it('refuses when a parent folder is swapped for an escaping link between the checks', async () => {
    t = makeToolContext({ files: { 'dir/.keep': '' } });
    const outside = t.outsideDir();
    let checks = 0;
    const fence = t.ctx.fence;
    t.ctx.fence = {
      root: fence.root,
      check: (input: string) => (++checks === 1 ? fence.check(input) : { ok: false, ruleId: 'path-fence', reason: `${input} resolves to ${outside}, outside the project.` }),
    } as typeof fence;
    const result = await tool.execute({ path: 'dir/new/file.txt', content: 'x' }, t.ctx);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('outside the project') });
    expect(checks).toBe(2);
    expect(t.preImages).toEqual([]);
  });
});

describe('countLineChanges', () => {
  it.each([
    ['', 'a\nb\n', 2, 0],
    ['a\nb\n', '', 0, 2],
    ['a\nb\nc\n', 'a\nc\n', 0, 1],
    // As git counts it: the last line gains a newline, so it is removed and added again.
    ['a', 'a\nb', 2, 1],
  ])('%j → %j', (before, after, added, removed) => {
    expect(countLineChanges(before, after)).toEqual({ added, removed });
  });
});
