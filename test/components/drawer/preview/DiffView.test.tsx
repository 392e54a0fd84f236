import chalk from 'chalk';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DiffView } from '../../../../components/drawer/preview/DiffView';
import { buildDiffModel } from '../../../../components/drawer/preview/diff-rows';
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

describe('DiffView', () => {
  it('shows a new file as new: every line added, one column', () => {
    const model = buildDiffModel('', 'alpha\nbeta\n', true);
    const r = render(
      <DiffView path="src/new.ts" model={model} layout="unified" offset={0} width={100} height={6} />,
    );
    const f = stripAnsi(r.lastFrame() ?? '');
    expect(f).toContain('src/new.ts new file · 2 lines');
    expect(f).toMatch(/^1 \+ alpha/m);
    expect(f).toMatch(/^2 \+ beta/m);
    expect(f).not.toContain('│');
  });

  it('side by side: old | new with line numbers and the changed words inverse', () => {
    const model = buildDiffModel('const a = 1;\nkeep\n', 'const b = 1;\nkeep\n', false);
    const r = render(<DiffView path="a.ts" model={model} layout="split" offset={0} width={100} height={5} />);
    const raw = r.lastFrame() ?? '';
    const f = stripAnsi(raw);
    expect(f).toMatch(/^1 const a = 1;\s+│ 1 const b = 1;/m);
    expect(f).toMatch(/^2 keep\s+│ 2 keep/m);
    // \u001b[7m is SGR inverse: only the differing words carry it.
    expect(raw).toMatch(/\u001b\[7m[^\u001b]*(\u001b\[1m)?a/);
    const inverse = [...raw.matchAll(/\u001b\[7m(?:\u001b\[1m)?([^\u001b]*)/g)].map((m) => m[1]);
    expect(inverse).toEqual(['a', 'b']);
  });

  it('unified rows carry both line numbers and highlight words too', () => {
    const model = buildDiffModel('x = old\n', 'x = new\n', false);
    const r = render(
      <DiffView path="a.ts" model={model} layout="unified" offset={0} width={80} height={5} />,
    );
    const raw = r.lastFrame() ?? '';
    const f = stripAnsi(raw);
    expect(f).toMatch(/^1\s+- x = old/m);
    expect(f).toMatch(/^\s+1 \+ x = new/m);
    const inverse = [...raw.matchAll(/\u001b\[7m(?:\u001b\[1m)?([^\u001b]*)/g)].map((m) => m[1]);
    expect(inverse).toEqual(['old', 'new']);
  });

  it('truncates long lines with an ellipsis and expands tabs; rows never wrap', () => {
    const model = buildDiffModel('', `\tindent ${'w'.repeat(400)}\nshort\n`, true);
    const r = render(
      <DiffView path="a.ts" model={model} layout="unified" offset={0} width={60} height={5} />,
    );
    const f = stripAnsi(r.lastFrame() ?? '');
    const row = f.split('\n')[1] ?? '';
    expect(row).toMatch(/^1 \+ {5}indent w+…$/);
    expect(row.length).toBe(60);
    expect(f.split('\n')[2]).toMatch(/^2 \+ short/);
  });

  it('a 5 MB file renders only the visible rows', () => {
    const big = lines(100_000, (i) => `row ${i} ${'x'.repeat(45)}`);
    expect(big.length).toBeGreaterThan(5_000_000);
    const model = buildDiffModel(big, big.replace('row 50000 ', 'row FIFTY '), false);
    const r = render(
      <DiffView path="big.txt" model={model} layout="split" offset={49_990} width={140} height={22} />,
    );
    const f = stripAnsi(r.lastFrame() ?? '');
    expect(bodyRows(f)).toHaveLength(20);
    expect(f).toContain('↑ 49990 lines above · ↓ 49990 below');
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

  it('opens at the first change and scrolls with j/k and PgUp/PgDn, counting lines outside the view', async () => {
    const d = renderDrawer([longModify()], { height: 40 });
    let f = await d.ready('side by side');
    const rows = bodyRows(afterRule(f)).length;
    expect(rows).toBeGreaterThan(10);
    expect(f).toContain(`↑ 96 lines above · ↓ ${200 - 96 - rows} below`);
    await press(d.stdin, 'j', 'j');
    f = await d.frame('↑ 98 lines above');
    await press(d.stdin, 'k');
    f = await d.frame('↑ 97 lines above');
    await press(d.stdin, KEY.pageDown);
    f = await d.frame(`↑ ${97 + rows - 1} lines above`);
    await press(d.stdin, KEY.pageUp);
    await d.frame('↑ 97 lines above');
    await press(d.stdin, 'g');
    f = await d.frame(/^ *1 line 1 /m);
    expect(f).not.toContain('lines above');
    await press(d.stdin, 'G');
    f = await d.frame('↑');
    expect(f).not.toContain('below');
    expect(f).toContain('200 line 200');
    expect(d.core.sent).toEqual([]);
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
    const before = bodyRows(afterRule(await d.ready('side by side'))).length;
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
