import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  countLineChanges,
  createWriteFileTool,
  defaultWriteFileEffects,
  WRITE_MAX_BYTES,
} from '../../../src/tools/fs/write-file';
import { writeFileSafely } from '../../../src/tools/fs/safe-fs';
import { makeToolContext, type TestToolContext } from '../../helpers/tool-context';

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
    const over = await tool.execute(
      { path: 'over.txt', content: 'é'.repeat(WRITE_MAX_BYTES / 2 + 1) },
      t.ctx,
    );
    expect(over).toMatchObject({ ok: false, error: expect.stringContaining('at most 5 MB') });
    expect(readdirSync(t.root)).toEqual(['cap.txt']);
  });

  it('refuses writes outside the fence and through a symlink that escapes', async () => {
    t = makeToolContext();
    const outside = t.outsideDir();
    symlinkSync(outside, join(t.root, 'link'));
    for (const path of ['../evil.txt', join(outside, 'evil.txt'), 'link/evil.txt', 'link/sub/evil.txt']) {
      const result = await tool.execute({ path, content: 'x' }, t.ctx);
      expect(result, path).toMatchObject({
        ok: false,
        error: expect.stringContaining('outside the project'),
      });
    }
    expect(readdirSync(outside)).toEqual([]);
    expect(t.preImages).toEqual([]);
  });

  it('refuses a directory and reports an unchanged file without writing', async () => {
    t = makeToolContext({ files: { 'src/a.ts': 'same' } });
    expect(await tool.execute({ path: 'src', content: 'x' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('is a directory'),
    });
    expect(await tool.execute({ path: 'src/a.ts', content: 'same' }, t.ctx)).toMatchObject({
      ok: true,
      data: { unchanged: true },
    });
    expect(t.preImages).toEqual([]);
  });

  it('refuses when a parent folder is swapped for an escaping link between the checks', async () => {
    t = makeToolContext({ files: { 'dir/.keep': '' } });
    const outside = t.outsideDir();
    let checks = 0;
    const fence = t.ctx.fence;
    t.ctx.fence = {
      root: fence.root,
      check: (input: string) =>
        ++checks === 1
          ? fence.check(input)
          : {
              ok: false,
              ruleId: 'path-fence',
              reason: `${input} resolves to ${outside}, outside the project.`,
            },
    } as typeof fence;
    const result = await tool.execute({ path: 'dir/new/file.txt', content: 'x' }, t.ctx);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('outside the project') });
    expect(checks).toBe(2);
    expect(t.preImages).toEqual([]);
  });
});

describe('write_file keeps bytes the diff does not show', () => {
  const latin1 = (text: string) => Buffer.from(text, 'latin1');

  it('rewrites one line of a Latin-1 file and keeps the other lines byte for byte', async () => {
    t = makeToolContext();
    const original = latin1('# caf\xe9\nvalue = 1\n# na\xefve\n');
    writeFileSync(join(t.root, 'conf.txt'), original);
    const shown = original.toString('utf8');
    const result = await tool.execute(
      { path: 'conf.txt', content: shown.replace('value = 1', 'value = 2') },
      t.ctx,
    );
    expect(result).toMatchObject({
      ok: true,
      output: expect.stringContaining('2 unchanged lines that are not UTF-8 kept their bytes'),
    });
    expect(readFileSync(join(t.root, 'conf.txt')).equals(latin1('# caf\xe9\nvalue = 2\n# na\xefve\n'))).toBe(
      true,
    );
  });

  it('refuses to change a line holding an undecodable byte, and writes nothing', async () => {
    t = makeToolContext();
    const original = latin1('caf\xe9 = 1\n');
    writeFileSync(join(t.root, 'menu.txt'), original);
    const result = await tool.execute({ path: 'menu.txt', content: 'caf\uFFFD = 2\n' }, t.ctx);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('not valid UTF-8') });
    expect(readFileSync(join(t.root, 'menu.txt')).equals(original)).toBe(true);
    expect(t.preImages).toEqual([]);
  });

  it.each([
    ['a PNG header', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00])],
    ['text with a NUL after 8 KB', Buffer.concat([Buffer.alloc(9000, 'a'), Buffer.from([0, 0x0a])])],
  ])(
    'refuses to overwrite a binary file (%s) with text unless replace_binary is given',
    async (_name, bytes) => {
      t = makeToolContext();
      writeFileSync(join(t.root, 'img.bin'), bytes);
      const refused = await tool.execute({ path: 'img.bin', content: 'text\n' }, t.ctx);
      expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('replace_binary: true') });
      expect(readFileSync(join(t.root, 'img.bin')).equals(bytes)).toBe(true);
      const replaced = await tool.execute(
        { path: 'img.bin', content: 'text\n', replace_binary: true },
        t.ctx,
      );
      expect(replaced).toMatchObject({ ok: true, data: { replacedBinary: true } });
      expect(readFileSync(join(t.root, 'img.bin'), 'utf8')).toBe('text\n');
    },
  );

  it('hands the bytes it read to the checkpoint, so undo does not reopen the path', async () => {
    t = makeToolContext();
    writeFileSync(join(t.root, 'a.txt'), 'old\n');
    chmodSync(join(t.root, 'a.txt'), 0o640);
    const seen: unknown[] = [];
    t.ctx.recordPreImage = async (_path, pre) => {
      seen.push(pre);
    };
    await tool.execute({ path: 'a.txt', content: 'new\n' }, t.ctx);
    await tool.execute({ path: 'b.txt', content: 'new\n' }, t.ctx);
    expect(seen).toEqual([{ kind: 'file', bytes: Buffer.from('old\n'), mode: 0o640 }, { kind: 'absent' }]);
  });
});

describe('write_file when the project root is gone', () => {
  it.each(['new.txt', 'deep/er/new.txt'])('refuses %s and does not recreate the root', async (path) => {
    t = makeToolContext();
    rmSync(t.root, { recursive: true });
    const result = await tool.execute({ path, content: 'x' }, t.ctx);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('no longer exists') });
    expect(existsSync(t.root)).toBe(false);
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
