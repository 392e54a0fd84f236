/**
 * Red team, warden's own file tools against hostile content inside the project: FIFOs and sparse
 * giants (nothing hangs, nothing huge is read), ripgrep arguments smuggled in patterns, globs and
 * file names (`--pre=sh`, `-rf`, `../`), very long names. Each case asserts the refusal and its
 * reason, or that the call did only what it says.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../src/tools/fs/edit-file';
import { createGlobFilesTool } from '../../src/tools/fs/glob-files';
import { createGrepCodeTool, defaultGrepCodeEffects } from '../../src/tools/fs/grep-code';
import { createListDirTool } from '../../src/tools/fs/list-dir';
import { createReadFileTool } from '../../src/tools/fs/read-file';
import { createWriteFileTool } from '../../src/tools/fs/write-file';
import { makeToolContext, type TestToolContext } from '../helpers/tool-context';
import { watchFifo } from './fifo-watch';

let t: TestToolContext;
afterEach(() => t?.cleanup());

const read = createReadFileTool();
const write = createWriteFileTool();
const edit = createEditFileTool();
const list = createListDirTool();
const glob = createGlobFilesTool();
const grep = createGrepCodeTool();

describe('a FIFO inside the project (made by a command) hangs nothing and is never opened for reading', () => {
  const withFifo = () => {
    t = makeToolContext({ files: { 'a.txt': 'needle\n' } });
    const fifo = join(t.root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    return fifo;
  };

  it.each([
    ['read_file', () => read.execute({ path: 'pipe' }, t.ctx), /pipe is not a regular file/],
    ['write_file', () => write.execute({ path: 'pipe', content: 'x' }, t.ctx), /pipe is not a regular file/],
    [
      'edit_file',
      () => edit.execute({ path: 'pipe', edits: [{ old_string: 'a', new_string: 'b' }] }, t.ctx),
      /pipe is not a regular file/,
    ],
    ['list_dir', () => list.execute({ path: 'pipe' }, t.ctx), /pipe is a file/],
    ['grep_code on it', () => grep.execute({ pattern: 'x', path: 'pipe' }, t.ctx), /\S/],
  ])('%s refuses with a reason', async (_tool, call, reason) => {
    const fifo = withFifo();
    const { result, opened } = await watchFifo(fifo, call());
    expect(opened).toBe(false);
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(reason) });
  });

  it.each([
    ['glob_files', () => glob.execute({ pattern: '**/*' }, t.ctx)],
    ['grep_code over the folder', () => grep.execute({ pattern: 'needle' }, t.ctx)],
    ['list_dir of the folder', () => list.execute({}, t.ctx)],
  ])('%s over a folder holding it finishes', async (_tool, call) => {
    const fifo = withFifo();
    const { result, opened } = await watchFifo(fifo, call());
    expect(opened).toBe(false);
    expect(result.ok).toBe(true);
  });

  it("grep_code's line count of a FIFO, a link out or a folder is unknown, never a hang", async () => {
    withFifo();
    const outside = t.outsideDir();
    writeFileSync(join(outside, 'long.txt'), 'x\n'.repeat(50));
    symlinkSync(join(outside, 'long.txt'), join(t.root, 'link.txt'));
    expect(await defaultGrepCodeEffects.lineCount(join(t.root, 'pipe'))).toBeUndefined();
    expect(await defaultGrepCodeEffects.lineCount(join(t.root, 'link.txt'))).toBeUndefined();
    expect(await defaultGrepCodeEffects.lineCount(t.root)).toBeUndefined();
    expect(await defaultGrepCodeEffects.lineCount(join(t.root, 'a.txt'))).toBe(1);
  });
});

describe('a sparse 20 GB file is refused by size, never read', () => {
  const sparse = () => {
    t = makeToolContext({ files: { 'small.txt': 'needle\n' } });
    const fd = openSync(join(t.root, 'huge.log'), 'w');
    closeSync(fd);
    truncateSync(join(t.root, 'huge.log'), 20 * 1024 ** 3);
  };

  it('read_file, write_file and edit_file say it is too large', async () => {
    sparse();
    expect(await read.execute({ path: 'huge.log' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining("over read_file's 10 MB limit"),
    });
    expect(await write.execute({ path: 'huge.log', content: 'x' }, t.ctx)).toMatchObject({
      ok: false,
      error: expect.stringContaining('does not replace files over 10 MB'),
    });
    expect(
      await edit.execute({ path: 'huge.log', edits: [{ old_string: 'a', new_string: 'b' }] }, t.ctx),
    ).toMatchObject({ ok: false, error: expect.stringContaining('edit_file changes files up to 5 MB') });
  });

  it('grep_code skips it and still searches the rest', async () => {
    sparse();
    const result = await grep.execute({ pattern: 'needle' }, t.ctx);
    expect(result).toMatchObject({ ok: true, data: { matches: [{ path: 'small.txt', line: 1 }] } });
  });
});

describe('ripgrep arguments smuggled in through the model or the repository', () => {
  it.each(['--pre=sh', '--pre', '-f/etc/passwd', '--files', '--search-zip', '-L', '--follow'])(
    'the pattern %j is searched for as text, never read as a flag',
    async (pattern) => {
      t = makeToolContext({ files: { 'a.txt': `a line with ${pattern} in it\n`, 'b.txt': 'nothing\n' } });
      const outside = t.outsideDir();
      writeFileSync(join(outside, 'x.txt'), `${pattern}\n`);
      symlinkSync(outside, join(t.root, 'out'));
      const result = await grep.execute({ pattern }, t.ctx);
      expect(result).toMatchObject({ ok: true, data: { matches: [{ path: 'a.txt', line: 1 }] } });
    },
  );

  it('a file named --pre=sh or -rf, searched as the path, is a file, not a flag', async () => {
    t = makeToolContext({
      files: { '--pre=sh': 'needle one\n', '-rf': 'needle two\n', 'c.txt': 'needle three\n' },
    });
    for (const path of ['--pre=sh', '-rf']) {
      const result = await grep.execute({ pattern: 'needle', path }, t.ctx);
      expect(result, path).toMatchObject({ ok: true, data: { matches: [{ path, line: 1 }] } });
    }
  });

  it.each(['../*', '**/../../*', '!../x', '/etc/*', '~/.ssh/*', 'a\0b', '{..,x}/*'])(
    'the grep glob %j is refused',
    async (g) => {
      t = makeToolContext({ files: { 'a.txt': 'needle\n' } });
      expect(await grep.execute({ pattern: 'needle', glob: g }, t.ctx)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/glob .* (must be relative|is empty or contains a NUL)/),
      });
    },
  );

  it('a grep glob that looks like a flag is one --glob= argument (it matches nothing)', async () => {
    t = makeToolContext({ files: { 'a.txt': 'needle\n' } });
    for (const g of ['--pre=sh', '-L', '--follow']) {
      const result = await grep.execute({ pattern: 'needle', glob: g }, t.ctx);
      expect(result, g).toMatchObject({ ok: true, data: { matches: [] } });
    }
  });

  it.each(['../*', '**/../../*', '/proc/self/root/*', '~/*', '{..,.}/*', 'a\0b', 'C:/x'])(
    'the glob_files pattern %j is refused',
    async (pattern) => {
      t = makeToolContext({ files: { 'a.txt': '' } });
      expect(await glob.execute({ pattern }, t.ctx)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/\S/),
      });
    },
  );
});

describe('very long names', () => {
  it('a 255-byte name is written, read and listed; a 256-byte one is refused with a reason', async () => {
    t = makeToolContext();
    const longest = 'n'.repeat(251) + '.txt';
    expect(await write.execute({ path: longest, content: 'ok\n' }, t.ctx)).toMatchObject({ ok: true });
    expect(await read.execute({ path: longest }, t.ctx)).toMatchObject({ ok: true });
    expect(readdirSync(t.root)).toEqual([longest]);
    const tooLong = await write.execute({ path: `${'n'.repeat(252)}.txt`, content: 'x' }, t.ctx);
    expect(tooLong).toMatchObject({ ok: false, error: expect.stringContaining('ENAMETOOLONG') });
  });

  it('a 255-byte multi-byte name (cut mid-character for the temp name) is written, no temp left', async () => {
    t = makeToolContext();
    const name = `a${'é'.repeat(127)}`;
    expect(Buffer.byteLength(name)).toBe(255);
    expect(await write.execute({ path: name, content: 'ok\n' }, t.ctx)).toMatchObject({ ok: true });
    expect(readdirSync(t.root)).toEqual([name]);
  });

  it('a path longer than PATH_MAX from / (under the fence limit): write and read refused with a reason, nothing made', async () => {
    t = makeToolContext();
    const deep = `${`${'d'.repeat(203)}/`.repeat(20)}f.txt`;
    expect(join(t.root, deep).length).toBeGreaterThan(4096);
    const wrote = await write.execute({ path: deep, content: 'x\n' }, t.ctx);
    const readBack = await read.execute({ path: deep }, t.ctx);
    for (const result of [wrote, readBack])
      expect(result).toMatchObject({ ok: false, error: expect.stringContaining('ENAMETOOLONG') });
    expect(readdirSync(t.root)).toEqual([]);
  });
});
