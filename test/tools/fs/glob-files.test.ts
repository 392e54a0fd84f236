import { symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitIgnore } from '../../../src/tools/fs/gitignore';
import { createGlobFilesTool, GLOB_MAX_RESULTS } from '../../../src/tools/fs/glob-files';
import { makeToolContext, type TestToolContext } from '../../helpers/tool-context';

const tool = createGlobFilesTool();
let t: TestToolContext;
afterEach(() => t?.cleanup());

const files = (data: unknown) => (data as { files: string[] }).files;

describe('glob_files', () => {
  it('returns root-relative paths, newest first', async () => {
    t = makeToolContext({ files: { 'src/old.ts': '', 'src/new.ts': '', 'src/mid.ts': '', 'README.md': '' } });
    const at = (rel: string, seconds: number) => utimesSync(join(t.root, rel), seconds, seconds);
    at('src/old.ts', 1_000);
    at('src/mid.ts', 2_000);
    at('src/new.ts', 3_000);
    const result = await tool.execute({ pattern: '**/*.ts' }, t.ctx);
    expect(files(result.data)).toEqual(['src/new.ts', 'src/mid.ts', 'src/old.ts']);
    const under = await tool.execute({ pattern: '*.ts', path: 'src' }, t.ctx);
    expect(files(under.data)).toHaveLength(3);
  });

  it('honours the root and nested .gitignore, negation included, and skips .git and node_modules', async () => {
    t = makeToolContext({
      files: {
        '.gitignore': 'dist/\n*.log\n!keep.log\n',
        'dist/a.js': '',
        'a.log': '',
        'keep.log': '',
        'src/a.js': '',
        'src/.gitignore': 'secret.js\n',
        'src/secret.js': '',
        'src/deep/secret.js': '',
        'other/secret.js': '',
        'node_modules/x/index.js': '',
        '.git/hooks/post.js': '',
      },
    });
    const js = await tool.execute({ pattern: '**/*.js' }, t.ctx);
    expect(files(js.data).sort()).toEqual(['other/secret.js', 'src/a.js']);
    const logs = await tool.execute({ pattern: '*.log' }, t.ctx);
    expect(files(logs.data)).toEqual(['keep.log']);
  });

  it('refuses patterns that could escape and never follows symlinked folders', async () => {
    t = makeToolContext({ files: { 'a.ts': '' } });
    const outside = t.outsideDir();
    symlinkSync(outside, join(t.root, 'link'));
    writeFileSync(join(outside, 'x'), '');
    for (const pattern of ['../*', '/etc/*', '~/x', 'src/../../x']) {
      expect(await tool.execute({ pattern }, t.ctx), pattern).toMatchObject({ ok: false });
    }
    const all = await tool.execute({ pattern: '**/*' }, t.ctx);
    expect(files(all.data)).not.toContain('link/x');
    expect(await tool.execute({ pattern: '*', path: '..' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('outside the project'),
    });
  });

  it('drops results a brace expansion makes absolute', async () => {
    t = makeToolContext({ files: { 'a.ts': '' } });
    const result = await tool.execute({ pattern: '{a.ts,/etc/hostname}' }, t.ctx);
    expect(files(result.data)).toEqual(['a.ts']);
  });

  it('caps at 200 results and says how many more there are', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 230; i++) tree[`f/${i}.txt`] = '';
    t = makeToolContext({ files: tree });
    const result = await tool.execute({ pattern: 'f/*.txt' }, t.ctx);
    if (!result.ok) throw new Error(result.error);
    expect(files(result.data)).toHaveLength(GLOB_MAX_RESULTS);
    expect(result.output).toContain('30 more files not shown');
  });

  it('says so when nothing matches', async () => {
    t = makeToolContext();
    expect(await tool.execute({ pattern: '*.rs' }, t.ctx)).toMatchObject({
      ok: true,
      output: expect.stringContaining('No files match'),
    });
  });
});

describe('GitIgnore', () => {
  const ig = new GitIgnore();
  ig.add('', '# comment\n/build\nlogs/\n*.tmp\n!important.tmp\ndocs/**/*.pdf\n\\#hash\n');
  ig.add('pkg', 'local.txt\n/only-here\n');

  it.each([
    ['build', true, true],
    ['build/x.js', false, true],
    ['src/build', true, false],
    ['logs', false, false],
    ['logs', true, true],
    ['a/logs/x', false, true],
    ['x.tmp', false, true],
    ['a/important.tmp', false, false],
    ['docs/a/b.pdf', false, true],
    ['#hash', false, true],
    ['pkg/local.txt', false, true],
    ['pkg/a/local.txt', false, true],
    ['local.txt', false, false],
    ['pkg/only-here', false, true],
    ['pkg/a/only-here', false, false],
  ])('%s (dir: %s) ignored: %s', (path, isDir, expected) => {
    expect(ig.ignores(path, isDir)).toBe(expected);
  });

  it('cannot re-include a file inside an ignored folder', () => {
    const g = new GitIgnore();
    g.add('', 'out/\n!out/keep.txt\n');
    expect(g.ignores('out/keep.txt', false)).toBe(true);
  });

  it('prunes only when no rule negates', () => {
    const g = new GitIgnore();
    g.add('', 'dist/\n');
    g.add('sub', 'gen\n');
    expect(g.pruneGlobs()).toEqual(['**/dist/**', 'sub/**/gen/**']);
    g.add('', '!keep\n');
    expect(g.pruneGlobs()).toEqual([]);
  });
});
