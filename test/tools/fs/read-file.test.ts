import { symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createReadFileTool, READ_MAX_BYTES, type ReadFileEffects } from '../../../src/tools/fs/read-file';
import type { FencedPath } from '../../../src/tools/fs/safe-fs';
import { makeToolContext, type TestToolContext } from '../../helpers/tool-context';

const tool = createReadFileTool();
let t: TestToolContext;
afterEach(() => t?.cleanup());

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

describe('read_file', () => {
  it('numbers lines and says nothing remains for a short file', async () => {
    t = makeToolContext({ files: { 'a.txt': 'one\ntwo\n' } });
    const result = await tool.execute({ path: 'a.txt' }, t.ctx);
    expect(result).toMatchObject({
      ok: true,
      output: '     1\tone\n     2\ttwo',
      data: { totalLines: 2, remaining: 0 },
    });
  });

  it('stops at 2000 lines and gives the offset to continue', async () => {
    t = makeToolContext({ files: { 'big.txt': lines(2500) } });
    const first = await tool.execute({ path: 'big.txt' }, t.ctx);
    if (!first.ok) throw new Error(first.error);
    const out = first.output.split('\n');
    expect(out).toHaveLength(2001);
    expect(out[1999]).toBe('  2000\tline 2000');
    expect(out[2000]).toContain('500 more, continue with offset 2001');
    expect(first.data).toMatchObject({ endLine: 2000, remaining: 500, nextOffset: 2001 });
    const second = await tool.execute({ path: 'big.txt', offset: 2001 }, t.ctx);
    if (!second.ok) throw new Error(second.error);
    expect(second.output.split('\n')[0]).toBe('  2001\tline 2001');
    expect(second.output).toContain('  2500\tline 2500');
    expect(second.data).toMatchObject({ remaining: 0 });
  });

  it('honours limit and refuses an offset past the end', async () => {
    t = makeToolContext({ files: { 'a.txt': lines(10) } });
    const some = await tool.execute({ path: 'a.txt', offset: 3, limit: 2 }, t.ctx);
    expect(some).toMatchObject({ ok: true, data: { startLine: 3, endLine: 4, nextOffset: 5 } });
    const past = await tool.execute({ path: 'a.txt', offset: 11 }, t.ctx);
    expect(past).toMatchObject({ ok: false, error: expect.stringContaining('has 10 lines') });
  });

  it('refuses binary files (NUL in the first 8 KB)', async () => {
    t = makeToolContext();
    writeFileSync(join(t.root, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    const result = await tool.execute({ path: 'img.png' }, t.ctx);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('looks binary') });
  });

  it.each([
    ['a NUL after the first 8 KB', Buffer.concat([Buffer.alloc(9000, 'a'), Buffer.from([0])])],
    ['a NUL after 5 MB', Buffer.concat([Buffer.alloc(5 * 1024 * 1024, 'a'), Buffer.from([0, 0x41])])],
    ['UTF-16 text', Buffer.from('\uFEFFhello', 'utf16le')],
  ])('refuses a binary file with %s (the whole file is checked)', async (_name, bytes) => {
    t = makeToolContext();
    writeFileSync(join(t.root, 'late.bin'), bytes);
    expect(await tool.execute({ path: 'late.bin' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('looks binary'),
    });
  });

  it('reads a file that is not valid UTF-8 and says what the replacement characters mean', async () => {
    t = makeToolContext();
    writeFileSync(join(t.root, 'latin1.txt'), Buffer.from('caf\xe9\nok\n', 'latin1'));
    const result = await tool.execute({ path: 'latin1.txt' }, t.ctx);
    expect(result).toMatchObject({ ok: true, output: expect.stringContaining('caf\uFFFD') });
    expect(result.ok && result.output).toContain('not valid UTF-8');
  });

  it('refuses files over the size cap without reading them', async () => {
    t = makeToolContext();
    // A sparse file: the cap is decided from fstat, before any byte is read.
    writeFileSync(join(t.root, 'huge.log'), '');
    truncateSync(join(t.root, 'huge.log'), READ_MAX_BYTES + 1);
    const result = await tool.execute({ path: 'huge.log' }, t.ctx);
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('10 MB limit') });
  });

  it('passes the fenced real path and the root to the safe read', async () => {
    t = makeToolContext({ files: { 'src/a.ts': 'x' } });
    symlinkSync(join(t.root, 'src'), join(t.root, 'alias'));
    const seen: FencedPath[] = [];
    const effects: ReadFileEffects = {
      read: async (target) => {
        seen.push(target);
        return { kind: 'absent' };
      },
    };
    await createReadFileTool(effects).execute({ path: 'alias/a.ts' }, t.ctx);
    expect(seen).toEqual([{ path: join(t.root, 'src/a.ts'), root: t.root }]);
  });

  it('refuses a directory with a hint to use list_dir, and a missing file with a hint', async () => {
    t = makeToolContext({ files: { 'src/a.ts': 'x' } });
    expect(await tool.execute({ path: 'src' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('list_dir'),
    });
    expect(await tool.execute({ path: 'nope.ts' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('does not exist'),
    });
  });

  it('refuses paths outside the fence, including through a symlink', async () => {
    t = makeToolContext();
    const outside = t.outsideDir();
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(outside, join(t.root, 'escape'));
    for (const path of ['../secret.txt', join(outside, 'secret.txt'), 'escape/secret.txt']) {
      const result = await tool.execute({ path }, t.ctx);
      expect(result, path).toMatchObject({
        ok: false,
        error: expect.stringContaining('outside the project'),
      });
    }
  });

  it('cuts very long lines', async () => {
    t = makeToolContext({ files: { 'min.js': 'x'.repeat(5000) } });
    const result = await tool.execute({ path: 'min.js' }, t.ctx);
    if (!result.ok) throw new Error(result.error);
    expect(result.output).toContain('[line cut at 2000 chars]');
    expect(result.output.length).toBeLessThan(2100);
  });

  it('adds nothing outside ASCII to an ASCII file (its text stays one byte a character in memory)', async () => {
    t = makeToolContext({ files: { 'big.txt': `${lines(2500)}\n${'y'.repeat(3000)}` } });
    for (const offset of [1, 2001]) {
      const result = await tool.execute({ path: 'big.txt', offset }, t.ctx);
      if (!result.ok) throw new Error(result.error);
      expect(result.output).toMatch(/^[\t\n\x20-\x7e]*$/);
    }
  });
});
