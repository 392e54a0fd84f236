import chalk from 'chalk';
import { render } from 'ink-testing-library';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Markdown } from '../../../components/transcript/Markdown';
import { parseMarkdown } from '../../../components/transcript/markdown-blocks';
import { columnWidths, layoutTable } from '../../../components/transcript/markdown-table';
import { makeTheme, ThemeContext } from '../../../components/look/theme';
import { textWidth } from '../../../src/text/width';
import { stripAnsi } from '../../helpers/ink';

function frameOf(text: string, width = 80, env: Record<string, string> = {}): { plain: string; raw: string } {
  const { lastFrame, unmount } = render(
    <ThemeContext.Provider value={makeTheme(env)}>
      <Markdown text={text} width={width} />
    </ThemeContext.Provider>,
  );
  const raw = lastFrame() ?? '';
  unmount();
  return { plain: stripAnsi(raw), raw };
}

const ESC = '\u001b';

beforeAll(() => {
  // Styles must reach the frame to be asserted; the test runner is no terminal.
  chalk.level = 1;
});

describe('Markdown (marked tokens)', () => {
  it.each([
    ['italics', 'an *important* word', 'an important word', `${ESC}[3mimportant`],
    ['bold', 'a **strong** word', 'a strong word', `${ESC}[1mstrong`],
    ['bold italic nested', '**very _much_ so**', 'very much so', `${ESC}[3mmuch`],
    ['strike', '~~gone~~ here', 'gone here', `${ESC}[9mgone`],
    ['inline code', 'run `npm test` now', 'run npm test now', 'npm test'],
    ['heading', '## Setup steps', 'Setup steps', `${ESC}[1m`],
    ['escaped star', 'a \\*literal\\* star', 'a *literal* star', 'literal'],
    ['entity', 'a &amp; b', 'a & b', 'a & b'],
  ])('%s', (_, text, shows, styled) => {
    const { plain, raw } = frameOf(text);
    expect(plain).toContain(shows);
    expect(raw).toContain(styled);
    expect(plain).not.toMatch(/\*\*|~~|`/);
  });

  it('shows a link with its target, and an autolink once', () => {
    const { plain } = frameOf('see [the docs](https://example.com/x) and https://a.example/b');
    expect(plain).toContain('the docs (https://example.com/x)');
    expect(plain).toContain('https://a.example/b');
    expect(plain).not.toContain('(https://a.example/b)');
  });

  it('draws nested ordered and unordered lists with indentation and hanging text', () => {
    const text = ['1. first', '2. second', '   - inner a', '     - deeper', '   - inner b', '3. third'].join(
      '\n',
    );
    const lines = frameOf(text).plain.split('\n');
    expect(lines).toEqual([
      '1. first',
      '2. second',
      '   ◦ inner a',
      '     • deeper',
      '   ◦ inner b',
      '3. third',
    ]);
  });

  it('keeps an ordered list start number and marks task items', () => {
    const { plain } = frameOf('7. seven\n8. eight\n\n- [x] done\n- [ ] todo');
    expect(plain).toContain('7. seven');
    expect(plain).toContain('8. eight');
    expect(plain).toMatch(/• \[x\] done/);
    expect(plain).toMatch(/• \[ \] todo/);
  });

  it('draws a code block with no border characters, its language as a dim label', () => {
    const { plain } = frameOf('Look:\n\n```ts\nconst x = 1;\nif (x) go();\n```\n\nDone.');
    const lines = plain.split('\n');
    expect(lines).toContain('ts');
    expect(lines).toContain('const x = 1;');
    expect(lines).toContain('if (x) go();');
    expect(plain).not.toMatch(/[│╭╮╰╯─]/);
    expect(plain).not.toContain('```');
  });

  it('highlights a code block once the grammars load (keywords magenta, strings yellow), text unchanged', async () => {
    const { lastFrame, unmount } = render(
      <ThemeContext.Provider value={makeTheme({})}>
        <Markdown text={'```ts\nconst greeting = "hi";\n```'} width={80} />
      </ThemeContext.Provider>,
    );
    // Plain until then: the whole block in the code colour (magenta).
    await vi.waitFor(() => expect(lastFrame()).toContain(`${ESC}[33m"hi"`), { timeout: 5000, interval: 10 });
    expect(lastFrame()).toContain(`${ESC}[35mconst${ESC}[39m`);
    expect(lastFrame()).not.toContain('const greeting = "hi";');
    expect(stripAnsi(lastFrame() ?? '').split('\n')).toContain('const greeting = "hi";');
    unmount();
  });

  it('under NO_COLOR a code block is never highlighted', async () => {
    const { raw } = frameOf('```ts\nconst x = 1;\n```', 80, { NO_COLOR: '1' });
    expect(raw).not.toContain(`${ESC}[35m`);
    expect(stripAnsi(raw).split('\n')).toContain('const x = 1;');
  });

  it('draws a block quote with a bar', () => {
    const { plain } = frameOf('> quoted line\n> second');
    expect(plain).toMatch(/┃ quoted line/);
    expect(plain).toMatch(/┃ second/);
  });

  it('draws a table aligned in columns, header ruled', () => {
    const { plain } = frameOf('| name | size |\n|:-----|-----:|\n| a.ts | 12 |\n| long-name.ts | 3400 |');
    const lines = plain.split('\n');
    expect(lines[0]).toBe('name         │ size');
    expect(lines[1]).toBe('─────────────┼─────');
    expect(lines[2]).toBe('a.ts         │   12');
    expect(lines[3]).toBe('long-name.ts │ 3400');
  });

  it('wraps a table that is wider than the width instead of cutting it', () => {
    const long = 'word '.repeat(30).trim();
    const { plain } = frameOf(`| k | text |\n|---|---|\n| a | ${long} |`, 40);
    for (const line of plain.split('\n')) expect(textWidth(line)).toBeLessThanOrEqual(40);
    expect(plain.match(/word/g)?.length).toBe(30);
  });

  it.each([
    ['open fence', 'Look:\n```sh\nnpm te'],
    ['lone bold marker', 'a **half'],
    ['half a table', '| a | b |\n|--'],
    ['half a link', 'see [docs](http://ex'],
    ['list marker only', '- '],
    ['empty', ''],
  ])('partial markdown while streaming renders without throwing: %s', (_, text) => {
    expect(() => frameOf(text)).not.toThrow();
  });

  it('shows an open fence of a streaming message as code so far', () => {
    const { plain } = frameOf('Look:\n```sh\nnpm te');
    expect(plain.split('\n')).toContain('npm te');
    expect(plain).not.toContain('```');
  });

  it('sanitises model text: escape sequences and bidi controls show as stand-ins', () => {
    const { raw } = frameOf(`**bold ${ESC}]52;c;QQ==\u0007** and \`x\u202Ey\` [l](http://a${ESC}[2J)`);
    expect(raw).not.toContain(`${ESC}]52`);
    expect(raw).not.toContain(`${ESC}[2J`);
    expect(raw).toContain('␛]52;c;QQ==␇');
    expect(raw).toContain('⟨U+202E⟩');
  });

  it('keeps backticks on inline code without colour (NO_COLOR)', () => {
    expect(frameOf('run `ls`', 80, { NO_COLOR: '1' }).plain).toContain('run `ls`');
  });

  it('memoises by text: the same text gives the same blocks object', () => {
    expect(parseMarkdown('# same')).toBe(parseMarkdown('# same'));
  });
});

describe('table layout', () => {
  it.each([
    [[['ab', 'c']], 80, [2, 1]],
    [[['aaaaaaaaaa', 'bbbbbbbbbb']], 13, [5, 5]],
    [[['aaaaaaaaaa', 'b']], 10, [6, 1]],
    [[['aaaa', 'bbbb']], 3, [3, 3]],
  ])('column widths of %j in %i cells: %j', (cells, width, expected) => {
    expect(columnWidths(cells, width)).toEqual(expected);
  });

  it('counts wide characters as two cells', () => {
    const t = layoutTable(['名前', 'x'], [['ab', 'y']], ['left', 'left'], 80);
    expect(t.header[0]).toBe('名前 │ x');
    expect(t.rows[0]?.[0]).toBe('ab   │ y');
  });
});
