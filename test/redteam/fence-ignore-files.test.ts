/**
 * Red team, path fence: a hostile repository's `.gitignore` files. They are read by warden itself
 * (glob_files, list_dir, `@path` completion), not by a fenced tool call, so the fence never sees them:
 * a `.gitignore` that is a link out of the project, a link to a device, or a FIFO a command made must
 * not be read (git itself does not follow a symlinked .gitignore), must not hang the call, and must
 * not change what the model is shown.
 */
import { execFileSync, spawn } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PathFence } from '../../src/policy/guards/path-guard';
import { completePath } from '../../src/session/path-complete';
import { createGlobFilesTool } from '../../src/tools/fs/glob-files';
import { GitIgnore } from '../../src/tools/fs/gitignore';
import { createListDirTool } from '../../src/tools/fs/list-dir';
import { makeToolContext, type TestToolContext } from '../helpers/tool-context';
import { watchFifo } from './fifo-watch';

let t: TestToolContext;
afterEach(() => t?.cleanup());

const files = (data: unknown) => (data as { files: string[] }).files;

describe('glob_files and a hostile .gitignore', () => {
  it('a root .gitignore that is a FIFO (made by an earlier command) is not opened; the call finishes', async () => {
    t = makeToolContext({ files: { 'a.ts': '' } });
    const fifo = join(t.root, '.gitignore');
    execFileSync('mkfifo', [fifo]);
    const { result, opened } = await watchFifo(
      fifo,
      createGlobFilesTool().execute({ pattern: '**/*.ts' }, t.ctx),
    );
    expect(opened).toBe(false);
    expect(result).toMatchObject({ ok: true });
    expect(files(result.data)).toEqual(['a.ts']);
  });

  it('a nested .gitignore FIFO is not opened either', async () => {
    t = makeToolContext({ files: { 'src/a.ts': '' } });
    const fifo = join(t.root, 'src', '.gitignore');
    execFileSync('mkfifo', [fifo]);
    const { result, opened } = await watchFifo(
      fifo,
      createGlobFilesTool().execute({ pattern: '**/*.ts' }, t.ctx),
    );
    expect(opened).toBe(false);
    expect(files(result.data)).toEqual(['src/a.ts']);
  });

  it('a root .gitignore linked to an outside file is not read: its rules do not hide project files', async () => {
    t = makeToolContext({ files: { 'a.ts': '', 'b.md': '' } });
    const outside = t.outsideDir();
    writeFileSync(join(outside, 'rules'), '*.ts\n');
    symlinkSync(join(outside, 'rules'), join(t.root, '.gitignore'));
    const result = await createGlobFilesTool().execute({ pattern: '**/*' }, t.ctx);
    // The link itself is not a file (fast-glob does not follow it): only the two project files.
    expect(files(result.data).sort()).toEqual(['a.ts', 'b.md']);
  });
});

describe('a clone’s .gitignore lines that backtrack', () => {
  // `ignore` 7.0.17 took 7.3 s for this line on a 400-character path (gitignore.ts says why it is not used).
  const bait = `${Array.from({ length: 4 }, () => '**/x').join('/')}/**/q`;

  it('a 4,000-character path is matched at once against lines built to backtrack', () => {
    const ignore = new GitIgnore();
    ignore.add('', `${bait}\n*a*a*a*a*a*a*a*a*a*a*a*a*b\n`);
    expect(ignore.ignores(`${'x/'.repeat(2000)}y`, false)).toBe(false);
    expect(ignore.ignores('a'.repeat(4000), false)).toBe(false);
    expect(ignore.ignores('x/x/x/x/q', false)).toBe(true);
  });

  it('glob_files under a deep tree still finishes and lists what the lines do not ignore', async () => {
    const deep = `${'x/'.repeat(60)}y.ts`;
    t = makeToolContext({ files: { [deep]: '', '.gitignore': `${bait}\n` } });
    const result = await createGlobFilesTool().execute({ pattern: '**/*.ts' }, t.ctx);
    expect(files(result.data)).toEqual([deep]);
  });
});

describe('list_dir and a hostile .gitignore (control: already safe)', () => {
  it('a FIFO .gitignore is not opened and an outside-linked one is not read', async () => {
    t = makeToolContext({ files: { 'a.ts': '', 'sub/b.ts': '' } });
    const fifo = join(t.root, '.gitignore');
    execFileSync('mkfifo', [fifo]);
    const outside = t.outsideDir();
    writeFileSync(join(outside, 'rules'), '*.ts\n');
    symlinkSync(join(outside, 'rules'), join(t.root, 'sub', '.gitignore'));
    const { result, opened } = await watchFifo(
      fifo,
      createListDirTool().execute({ path: '.', depth: 2 }, t.ctx),
    );
    expect(opened).toBe(false);
    expect(result.ok && result.output).toContain('b.ts');
    expect(result.ok && result.output).toContain('a.ts');
  });
});

describe('@path completion and a hostile .gitignore', () => {
  it('a .gitignore linked to an outside file is not read: its rules do not hide project files', () => {
    t = makeToolContext({ files: { 'alpha.ts': '' } });
    const outside = t.outsideDir();
    writeFileSync(join(outside, 'rules'), 'alpha.ts\n');
    symlinkSync(join(outside, 'rules'), join(t.root, '.gitignore'));
    expect(completePath(new PathFence(t.root), 'al')).toEqual(['alpha.ts']);
  });

  it('a FIFO .gitignore is not read (a blocking read on the UI thread would freeze warden)', async () => {
    t = makeToolContext({ files: { 'alpha.ts': '' } });
    const fifo = join(t.root, '.gitignore');
    execFileSync('mkfifo', [fifo]);
    // A writer waits for a reader, so an unfixed blocking read gets its rules and EOF (the test
    // fails with a reason) instead of hanging; a fixed one never waits for it.
    const writer = spawn('sh', ['-c', 'printf "alpha.ts\\n" > "$1"', 'sh', fifo], { stdio: 'ignore' });
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    try {
      expect(completePath(new PathFence(t.root), 'al')).toEqual(['alpha.ts']);
    } finally {
      writer.kill('SIGKILL');
      await exited;
    }
  });
});
