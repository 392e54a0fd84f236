import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createListDirTool, LIST_MAX_ENTRIES } from '../../../src/tools/fs/list-dir';
import { makeToolContext, type TestToolContext } from '../../helpers/tool-context';

const tool = createListDirTool();
let t: TestToolContext;
afterEach(() => t?.cleanup());

type Entry = { path: string; type: string; size?: number };
const paths = (data: unknown) => (data as { entries: Entry[] }).entries.map((e) => e.path);

describe('list_dir', () => {
  it('lists folders first then files by name, with sizes, depth 1 by default', async () => {
    t = makeToolContext({ files: { 'b.txt': 'bb', 'a.txt': 'a', 'src/index.ts': 'x', 'lib/x.ts': 'y' } });
    const result = await tool.execute({}, t.ctx);
    if (!result.ok) throw new Error(result.error);
    expect(paths(result.data)).toEqual(['lib', 'src', 'a.txt', 'b.txt']);
    expect((result.data as { entries: Entry[] }).entries[3]).toEqual({
      path: 'b.txt',
      type: 'file',
      size: 2,
      depth: 1,
    });
    expect(result.output).toBe('./\n  lib/\n  src/\n  a.txt  1 B\n  b.txt  2 B');
  });

  it('descends to the requested depth and shows symlinks without following them', async () => {
    t = makeToolContext({ files: { 'src/a/b/c.ts': 'x', 'src/top.ts': 'y' } });
    const outside = t.outsideDir();
    symlinkSync(outside, join(t.root, 'src/out'));
    const result = await tool.execute({ path: 'src', depth: 2 }, t.ctx);
    if (!result.ok) throw new Error(result.error);
    expect(paths(result.data)).toEqual(['src/a', 'src/a/b', 'src/out', 'src/top.ts']);
    expect(result.output).toContain('  out  (symlink)');
  });

  it('skips .git, node_modules and .gitignored entries unless include_ignored', async () => {
    t = makeToolContext({
      files: {
        '.git/HEAD': 'ref',
        'node_modules/x/index.js': '',
        'dist/out.js': '',
        '.gitignore': 'dist/\n*.log\n',
        'app.log': '',
        'src/keep.ts': '',
        'src/.gitignore': 'gen/\n',
        'src/gen/g.ts': '',
      },
    });
    const hidden = await tool.execute({ depth: 2 }, t.ctx);
    if (!hidden.ok) throw new Error(hidden.error);
    expect(paths(hidden.data)).toEqual(['src', 'src/.gitignore', 'src/keep.ts', '.gitignore']);
    expect(hidden.output).toContain('5 ignored entries hidden');
    const shown = await tool.execute({ include_ignored: true }, t.ctx);
    expect(paths(shown.data)).toEqual(['.git', 'dist', 'node_modules', 'src', '.gitignore', 'app.log']);
  });

  it('caps at 500 entries and says how many were left out', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 620; i++) files[`f${String(i).padStart(4, '0')}.txt`] = '';
    t = makeToolContext({ files });
    const result = await tool.execute({}, t.ctx);
    if (!result.ok) throw new Error(result.error);
    expect(paths(result.data)).toHaveLength(LIST_MAX_ENTRIES);
    expect(result.data).toMatchObject({ omitted: 120 });
    expect(result.output).toContain('120 more entries not shown');
  });

  it('refuses a file with a hint, a missing folder, and paths outside the fence', async () => {
    t = makeToolContext({ files: { 'a.txt': '' } });
    expect(await tool.execute({ path: 'a.txt' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('read_file'),
    });
    expect(await tool.execute({ path: 'missing' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('does not exist'),
    });
    expect(await tool.execute({ path: '..' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('outside the project'),
    });
  });
});
