import chalk from 'chalk';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DiffView, type DiffViewProps } from '../../../../components/drawer/preview/DiffView';
import { foldDiff } from '../../../../components/drawer/preview/diff-fold';
import { buildDiffModel, type DiffLayout } from '../../../../components/drawer/preview/diff-rows';
import { loadHighlighter } from '../../../../components/highlight/highlight';
import { makeTheme, ThemeContext } from '../../../../components/look/theme';
import { makeRequest } from '../../../helpers/fake-core';
import { KEY, press, stripAnsi } from '../../../helpers/ink';
import { modifyRequest, renderDrawer } from '../approval-drawer-harness';

// Ink colours through chalk; force colour so the inverse highlight is visible in frames.
beforeAll(() => {
  chalk.level = 1;
});
afterEach(() => cleanup());

/** Rows of the diff body: lines that start with a line-number gutter. */
const bodyRows = (frame: string) => frame.split('\n').filter((l) => /^\s*\d+ /.test(l));

/** The card body: everything under the card's rule line. */
const afterRule = (frame: string) => frame.slice(frame.lastIndexOf('─') + 1);

const lines = (n: number, f = (i: number) => `line ${i + 1}`) =>
  Array.from({ length: n }, (_, i) => f(i)).join('\n');

/** A DiffView of before → after, folded unless `unfolded`. */
function view(
  before: string,
  after: string,
  opts: Partial<DiffViewProps> & { layout: DiffLayout; width: number; height: number; isNew?: boolean },
  env: Record<string, string | undefined> = {},
) {
  const model = buildDiffModel(before, after, opts.isNew ?? false);
  const folded = foldDiff(model, opts.layout, opts.unfolded === true);
  return render(
    <ThemeContext.Provider value={makeTheme(env)}>
      <DiffView path="a.ts" model={model} folded={folded} offset={0} {...opts} />
    </ThemeContext.Provider>,
  );
}

describe('DiffView', () => {
  it('shows a new file as new: every line added, one column', () => {
    const r = view('', 'alpha\nbeta\n', {
      layout: 'unified',
      width: 100,
      height: 6,
      isNew: true,
      path: 'src/new.ts',
    });
    const f = stripAnsi(r.lastFrame() ?? '');
    expect(f).toContain('src/new.ts new file · 2 lines');
    expect(f).toMatch(/^1 \+ alpha/m);
    expect(f).toMatch(/^2 \+ beta/m);
    expect(f).not.toContain('│');
  });

  it('side by side: old | new with line numbers, -/+ markers and the changed words inverse', () => {
    const r = view('const a = 1;\nkeep\n', 'const b = 1;\nkeep\n', {
      layout: 'split',
      width: 100,
      height: 5,
    });
    const raw = r.lastFrame() ?? '';
    const f = stripAnsi(raw);
    expect(f).toMatch(/^1 - const a = 1;\s+│ 1 \+ const b = 1;/m);
    expect(f).toMatch(/^2 {3}keep\s+│ 2 {3}keep/m);
    const inverse = [...raw.matchAll(/\u001b\[7m(?:\u001b\[\d+m)*([^\u001b]*)/g)].map((m) => m[1]);
    expect(inverse).toEqual(['a', 'b']);
  });

  it('unified rows carry both line numbers and highlight words too', () => {
    const r = view('x = old\n', 'x = new\n', { layout: 'unified', width: 80, height: 5 });
    const raw = r.lastFrame() ?? '';
    const f = stripAnsi(raw);
    expect(f).toMatch(/^1\s+- x = old/m);
    expect(f).toMatch(/^\s+1 \+ x = new/m);
    const inverse = [...raw.matchAll(/\u001b\[7m(?:\u001b\[\d+m)*([^\u001b]*)/g)].map((m) => m[1]);
    expect(inverse).toEqual(['old', 'new']);
  });

  it('truncates long lines with an ellipsis and expands tabs; rows never wrap', () => {
    const r = view('', `\tindent ${'w'.repeat(400)}\nshort\n`, {
      layout: 'unified',
      width: 60,
      height: 5,
      isNew: true,
    });
    const f = stripAnsi(r.lastFrame() ?? '');
    const row = f.split('\n')[1] ?? '';
    expect(row).toMatch(/^1 \+ {5}indent w+…$/);
    expect(row.length).toBe(60);
    expect(f.split('\n')[2]).toMatch(/^2 \+ short/);
  });

  it('folds a 2,000-line file with 3 changes to three hunks on one screen, counted in the header', () => {
    const before = lines(2000);
    const after = before
      .replace('line 100\n', 'line one hundred\n')
      .replace('line 1000\n', 'line 1000 (fixed)\n')
      .replace('line 1900\n', 'line NINETEEN\n');
    const r = view(before, after, { layout: 'split', width: 120, height: 30, change: 1 });
    const f = stripAnsi(r.lastFrame() ?? '');
    expect(f).toContain('change 2 of 3 · line 1000');
    expect(f).toContain('⋯ 96 unchanged lines');
    expect(f).toContain('⋯ 893 unchanged lines');
    for (const n of [100, 1000, 1900]) expect(f).toMatch(new RegExp(`^ *${n} - line ${n}`, 'm'));
    expect(f).toContain(']/[ change · z unfold');
  });

  it('a plain capture (no colour at all) still shows which lines changed and how', () => {
    chalk.level = 0;
    try {
      const r = view('keep\nold line\n', 'keep\nnew line\nadded\n', {
        layout: 'split',
        width: 100,
        height: 6,
      });
      const f = r.lastFrame() ?? '';
      expect(f).not.toContain('\u001b[');
      expect(f).toMatch(/^2 - old line\s+│ 2 \+ new line/m);
      expect(f).toMatch(/^\s+│ 3 \+ added/m);
    } finally {
      chalk.level = 1;
    }
  });

  it('NO_COLOR: no colour, no highlighting; markers and inverse words stay', async () => {
    await loadHighlighter('a.ts');
    const r = view(
      'const a = 1;\n',
      'const b = 1;\n',
      { layout: 'split', width: 100, height: 5 },
      { NO_COLOR: '1' },
    );
    const raw = r.lastFrame() ?? '';
    expect(raw).not.toMatch(/\u001b\[3\dm/);
    expect(raw).toContain('\u001b[7m');
    expect(stripAnsi(raw)).toMatch(/^1 - const a = 1;\s+│ 1 \+ const b = 1;/m);
  });

  it('highlights code once the grammars have loaded: keywords coloured, changed words still inverse', async () => {
    expect(await loadHighlighter('a.ts')).toBe(true);
    const r = view('const a = 1; // note\n', 'const b = 1; // note\n', {
      layout: 'split',
      width: 100,
      height: 5,
    });
    // Rows past a frame's highlighting budget are coloured on the next draw.
    await vi.waitFor(() => expect((r.lastFrame() ?? '').match(/\u001b\[35mconst/g)).toHaveLength(2));
    const raw = r.lastFrame() ?? '';
    expect(raw).toMatch(/\u001b\[35mconst/);
    expect(raw).toMatch(/\u001b\[90m\/\/ note/);
    const inverse = [...raw.matchAll(/\u001b\[7m(?:\u001b\[\d+m)*([^\u001b]*)/g)].map((m) => m[1]);
    expect(inverse).toEqual(['a', 'b']);
  });

  it('a 5 MB file renders only the visible rows', () => {
    const big = lines(100_000, (i) => `row ${i} ${'x'.repeat(45)}`);
    expect(big.length).toBeGreaterThan(5_000_000);
    const r = view(big, big.replace('row 50000 ', 'row FIFTY '), { layout: 'split', width: 140, height: 22 });
    const f = stripAnsi(r.lastFrame() ?? '');
    expect(bodyRows(f)).toHaveLength(7);
    expect(f).toContain('⋯ 49997 unchanged lines');
    expect(f).toContain('row FIFTY');
  });
});

describe('diff card in the drawer', () => {
  const longModify = () => {
    const before = lines(200);
    return modifyRequest({
      preview: {
        kind: 'diff',
        path: 'src/a.ts',
        before,
        after: before.replace('line 100\n', 'line one hundred\n'),
        isNew: false,
      },
    });
  };

  it('opens folded; z shows every line at the change in view, then j/k and PgUp/PgDn scroll', async () => {
    const d = renderDrawer([longModify()], { height: 40 });
    let f = await d.ready('side by side');
    expect(f).toContain('⋯ 96 unchanged lines');
    expect(f).toContain('⋯ 97 unchanged lines');
    expect(f).toContain('1 change · line 100');
    await press(d.stdin, 'z');
    f = await d.frame('z fold');
    const rows = bodyRows(afterRule(f)).length;
    expect(rows).toBeGreaterThan(10);
    expect(f).toContain(`↑ 95 lines above · ↓ ${200 - 95 - rows} below`);
    await press(d.stdin, 'j', 'j');
    f = await d.frame('↑ 97 lines above');
    await press(d.stdin, 'k');
    f = await d.frame('↑ 96 lines above');
    await press(d.stdin, KEY.pageDown);
    f = await d.frame(`↑ ${96 + rows - 1} lines above`);
    await press(d.stdin, KEY.pageUp);
    await d.frame('↑ 96 lines above');
    await press(d.stdin, 'g');
    f = await d.frame(/^ *1 {3}line 1 /m);
    expect(f).not.toContain('lines above');
    await press(d.stdin, 'G');
    f = await d.frame('↑');
    expect(f).not.toContain('below');
    expect(f).toContain('200   line 200');
    await press(d.stdin, 'z');
    await d.frame('⋯ 96 unchanged lines');
    expect(d.core.sent).toEqual([]);
  });

  it('] and [ jump from change to change; the header says which and at what line', async () => {
    const before = lines(2000);
    const after = before
      .replace('line 100\n', 'line one hundred\n')
      .replace('line 1000\n', 'line 1000 (fixed)\n')
      .replace('line 1900\n', 'line NINETEEN\n');
    const d = renderDrawer(
      [modifyRequest({ preview: { kind: 'diff', path: 'big.ts', before, after, isNew: false } })],
      { height: 24 },
    );
    let f = await d.ready('change 1 of 3 · line 100');
    expect(f).toMatch(/^ *100 - line 100 /m);
    await press(d.stdin, ']');
    f = await d.frame('change 2 of 3 · line 1000');
    expect(f).toMatch(/^ *1000 - line 1000 +│ 1000 \+ line 1000 \(fixed\)/m);
    await press(d.stdin, ']');
    f = await d.frame('change 3 of 3 · line 1900');
    expect(f).toMatch(/^ *1900 - line 1900 /m);
    await press(d.stdin, ']');
    await d.frame('this is the last change');
    await press(d.stdin, '[', '[');
    f = await d.frame('change 1 of 3 · line 100');
    await press(d.stdin, '[');
    await d.frame('this is the first change');
    // Unfolded, a jump still lands on the change.
    await press(d.stdin, 'z', ']');
    f = await d.frame('change 2 of 3 · line 1000');
    expect(f).toMatch(/^ *1000 - line 1000 /m);
    expect(f).not.toContain('unchanged lines');
    expect(d.core.sent).toEqual([]);
  });

  it('← → scroll long lines sideways; a changed line keeps its change in view', async () => {
    const pad = 'p'.repeat(150);
    const before = `${pad} tail one\nshort\n${'c'.repeat(300)} end\n`;
    const after = `${pad} tail two\nshort\n${'c'.repeat(300)} end\n`;
    const d = renderDrawer(
      [modifyRequest({ preview: { kind: 'diff', path: 'w.txt', before, after, isNew: false } })],
      { width: 120 },
    );
    let f = await d.ready('side by side');
    expect(f).toMatch(/^1 - …p+ tail one\s+│ 1 \+ …p+ tail two/m);
    expect(f).toMatch(/^3 {3}c+…/m);
    await press(d.stdin, KEY.right);
    f = await d.frame('columns');
    expect(f).toMatch(/^3 {3}…c+…/m);
    expect(f).toMatch(/tail two/);
    await press(d.stdin, KEY.left);
    f = await d.frame((x) => !x.includes('columns'));
    expect(f).toMatch(/^3 {3}c+…/m);
    expect(d.core.sent).toEqual([]);
  });

  it('the help lists the diff keys from the key table', async () => {
    const d = renderDrawer([modifyRequest()]);
    await d.ready('side by side');
    await press(d.stdin, '?');
    const f = await d.frame('next / previous change');
    expect(f).toContain('show every unchanged line');
    expect(f).toContain('scroll long lines sideways');
  });

  it('narrower than 100 columns the diff is unified', async () => {
    const d = renderDrawer([modifyRequest()], { width: 90 });
    const f = await d.ready('unified');
    expect(f).toMatch(/^10\s+- line 10 value = 9/m);
    expect(f).toMatch(/^\s+10 \+ line 10 value = nine/m);
    await press(d.stdin, 'u');
    await d.frame('side by side needs 100 columns');
  });

  it('u switches side by side and unified on a wide terminal', async () => {
    const d = renderDrawer([modifyRequest()], { width: 120 });
    await d.ready('side by side');
    await press(d.stdin, 'u');
    await d.frame('· unified');
    await press(d.stdin, 'u');
    await d.frame('· side by side');
    expect(d.core.sent).toEqual([]);
  });

  it('full screen gives the diff the rows the queue and details had', async () => {
    const d = renderDrawer([longModify(), makeRequest({ id: 'req-2' })], { height: 30 });
    await d.ready('side by side');
    await press(d.stdin, 'z');
    const before = bodyRows(afterRule(await d.frame('z fold'))).length;
    await press(d.stdin, 'f');
    const f = await d.frame('full screen (f)');
    const after = bodyRows(afterRule(f)).length;
    expect(after).toBeGreaterThan(before + 5);
  });

  it('the diff of a 5 MB new file fills the view and no more', async () => {
    const big = lines(100_000, (i) => `row ${i} ${'y'.repeat(45)}`);
    const d = renderDrawer(
      [makeRequest({ preview: { kind: 'diff', path: 'big.txt', before: '', after: big, isNew: true } })],
      {
        height: 30,
      },
    );
    const f = await d.ready('new file · 100000 lines');
    const rows = bodyRows(afterRule(f));
    expect(rows.length).toBeGreaterThan(5);
    expect(f).toContain(`↓ ${100_000 - rows.length} below`);
    await press(d.stdin, 'G');
    await d.frame(`↑ ${100_000 - rows.length} lines above`);
  });
});
