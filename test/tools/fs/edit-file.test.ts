import { chmodSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditFileTool } from '../../../src/tools/fs/edit-file';
import { applyStringEdits, type StringEdit } from '../../../src/tools/fs/string-edits';
import { defaultWriteFileEffects } from '../../../src/tools/fs/write-file';
import { makeToolContext, type TestToolContext } from '../../helpers/tool-context';

const tool = createEditFileTool();
let t: TestToolContext;
afterEach(() => t?.cleanup());

const e = (old_string: string, new_string: string, replace_all?: boolean): StringEdit =>
  replace_all === undefined ? { old_string, new_string } : { old_string, new_string, replace_all };

describe('applyStringEdits', () => {
  const ok: [string, string, StringEdit[], string][] = [
    ['one edit', 'a\nb\nc\n', [e('b', 'B')], 'a\nB\nc\n'],
    [
      'several edits in order, the second sees the first',
      'x = 1\ny = 2\n',
      [e('x = 1', 'x = 10'), e('x = 10\ny', 'x = 10\nz')],
      'x = 10\nz = 2\n',
    ],
    ['replace_all', 'foo(); foo(); bar();', [e('foo', 'baz', true)], 'baz(); baz(); bar();'],
    ['replace_all with one match', 'foo bar', [e('foo', 'baz', true)], 'baz bar'],
    ['CRLF file, edit written with LF', 'a\r\nb\r\nc\r\n', [e('a\nb', 'a\nB')], 'a\r\nB\r\nc\r\n'],
    ['BOM kept', '\uFEFFfirst\nsecond\n', [e('second', '2nd')], '\uFEFFfirst\n2nd\n'],
    ['$ patterns are literal', 'price', [e('price', '$& $1 $$')], '$& $1 $$'],
  ];
  it.each(ok)('%s', (_name, before, edits, after) => {
    expect(applyStringEdits(before, edits)).toMatchObject({ ok: true, after });
  });

  const bad: [string, string, StringEdit[], RegExp[]][] = [
    [
      'missing, with the nearest line',
      'function add(a, b) {\n  return a + b;\n}\n',
      [e('return a+b;', 'x')],
      [/the edit: old_string was not found \(0 matches\)/, /Nearest lines:\n {2}2: return a \+ b;/],
    ],
    [
      'missing second edit names it',
      'alpha\nbeta\n',
      [e('alpha', 'A'), e('gamma', 'G')],
      [/edit 2 of 2: old_string was not found/, /edits apply in order/],
    ],
    [
      'non-unique names the count and the lines',
      'x\nfoo\ny\nfoo\n',
      [e('foo', 'bar')],
      [/matches 2 places/, /replace_all: true/, /\n {2}2: foo\n {2}4: foo/],
    ],
    ['empty old_string', 'abc', [e('', 'x')], [/old_string is empty/]],
    ['identical old and new', 'abc', [e('b', 'b')], [/are the same/]],
    ['nothing close', 'aaaa\n', [e('zzzz qqqq', 'x')], [/No line is close/]],
    [
      'control characters in candidates are made visible',
      'say("\u001b[31mhi")\n',
      [e('say("hi")', 'x')],
      [/Nearest lines:/],
    ],
  ];
  it.each(bad)('%s', (_name, before, edits, patterns) => {
    const result = applyStringEdits(before, edits);
    expect(result.ok).toBe(false);
    for (const p of patterns) expect(result.ok ? '' : result.error).toMatch(p);
    expect(result.ok ? '' : result.error).not.toContain('\u001b');
  });
});

describe('edit_file', () => {
  it('edits in place, keeps the mode, records the pre-image and leaves no temp file', async () => {
    t = makeToolContext({ files: { 'src/a.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' } });
    chmodSync(join(t.root, 'src/a.ts'), 0o640);
    const result = await tool.execute(
      { path: 'src/a.ts', edits: [e('a = 1', 'a = 10'), e('c = 3', 'c = 30')] },
      t.ctx,
    );
    expect(result).toMatchObject({ ok: true, data: { edits: 2, added: 2, removed: 2 } });
    expect(readFileSync(join(t.root, 'src/a.ts'), 'utf8')).toBe(
      'const a = 10;\nconst b = 2;\nconst c = 30;\n',
    );
    expect(statSync(join(t.root, 'src/a.ts')).mode & 0o777).toBe(0o640);
    expect(t.preImages).toEqual([join(t.root, 'src/a.ts')]);
    expect(readdirSync(join(t.root, 'src'))).toEqual(['a.ts']);
  });

  const refused: [string, Record<string, string>, { path: string; edits: StringEdit[] }, RegExp][] = [
    [
      'a missing old_string',
      { 'a.txt': 'one\ntwo\n' },
      { path: 'a.txt', edits: [e('one', '1'), e('three', '3')] },
      /edit 2 of 2: old_string was not found/,
    ],
    [
      'a non-unique old_string',
      { 'a.txt': 'x\nx\n' },
      { path: 'a.txt', edits: [e('x', 'y')] },
      /matches 2 places/,
    ],
    [
      'a file that does not exist',
      {},
      { path: 'new.txt', edits: [e('a', 'b')] },
      /does not exist; create it with write_file/,
    ],
    ['a binary file', { 'b.bin': 'a\u0000b' }, { path: 'b.bin', edits: [e('a', 'b')] }, /binary file/],
    ['a path outside the project', {}, { path: '../outside.txt', edits: [e('a', 'b')] }, /outside|project/i],
    [
      'a credential file, by name',
      { '.env': 'TOKEN=abc\n' },
      { path: '.env', edits: [e('TOKEN=abc', 'TOKEN=x')] },
      /\.env is a credential file; edit_file does not change it/,
    ],
  ];
  it.each(refused)('refuses %s and writes nothing', async (_name, files, args, error) => {
    t = makeToolContext({ files });
    const before = Object.fromEntries(Object.keys(files).map((f) => [f, readFileSync(join(t.root, f))]));
    const result = await tool.execute(args, t.ctx);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toMatch(error);
    for (const [f, bytes] of Object.entries(before)) expect(readFileSync(join(t.root, f))).toEqual(bytes);
    expect(t.preImages).toEqual([]);
  });

  it('refuses a symbolic link that leads out of the project, and the outside file is unchanged', async () => {
    t = makeToolContext();
    const outside = join(t.outsideDir(), 'secret.txt');
    writeFileSync(outside, 'token=1\n');
    symlinkSync(outside, join(t.root, 'link.txt'));
    const result = await tool.execute({ path: 'link.txt', edits: [e('token=1', 'token=2')] }, t.ctx);
    expect(result.ok).toBe(false);
    expect(readFileSync(outside, 'utf8')).toBe('token=1\n');
  });

  it('fails closed when the file is not the content the person approved', async () => {
    t = makeToolContext({ files: { 'a.txt': 'one\n' } });
    const result = await tool.execute(
      { path: 'a.txt', edits: [e('one', '1')] },
      { ...t.ctx, preImageMatches: () => false },
    );
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^file_changed: a.txt changed/) });
    expect(readFileSync(join(t.root, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('keeps the bytes of unchanged lines that are not UTF-8', async () => {
    t = makeToolContext();
    writeFileSync(join(t.root, 'l1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6f, 0x6b, 0x0a]));
    const result = await tool.execute({ path: 'l1.txt', edits: [e('ok', 'fine')] }, t.ctx);
    expect(result.ok).toBe(true);
    expect(readFileSync(join(t.root, 'l1.txt'))).toEqual(Buffer.from('caf\xe9\nfine\n', 'latin1'));
  });

  it('a failing rename leaves the original', async () => {
    t = makeToolContext({ files: { 'a.txt': 'one\n' } });
    const failing = createEditFileTool({
      ...defaultWriteFileEffects,
      write: async () => {
        throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
      },
    });
    const result = await failing.execute({ path: 'a.txt', edits: [e('one', '1')] }, t.ctx);
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/original is unchanged/) });
    expect(readFileSync(join(t.root, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('its schema refuses no edits, unknown fields and too many edits', () => {
    const many = Array.from({ length: 51 }, (_, i) => e(`a${i}`, 'b'));
    for (const args of [
      { path: 'a', edits: [] },
      { path: 'a', edits: [{ old_string: 'a', new_string: 'b', extra: 1 }] },
      { path: 'a', edits: many },
      { path: 'a', content: 'x', edits: [e('a', 'b')] },
    ])
      expect(tool.schema.safeParse(args).success).toBe(false);
  });
});
