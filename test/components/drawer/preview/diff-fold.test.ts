import { describe, expect, it } from 'vitest';
import {
  CONTEXT,
  changeOffset,
  currentChange,
  type FoldRow,
  foldDiff,
  linesIn,
} from '../../../../components/drawer/preview/diff-fold';
import { buildDiffModel } from '../../../../components/drawer/preview/diff-rows';

const file = (n: number, eol = '\n', f = (i: number) => `line ${i + 1}`) =>
  Array.from({ length: n }, (_, i) => f(i)).join(eol) + eol;
/** Changes lines (1-based) of an n-line file. */
const edit = (n: number, lines: number[], eol = '\n') =>
  file(n, eol, (i) => (lines.includes(i + 1) ? `line ${i + 1} CHANGED` : `line ${i + 1}`));

/** The folded rows as a compact picture: `.` kept unchanged row, `*` changed row, `~N` a fold of N. */
const picture = (rows: FoldRow[], kinds: string[]) =>
  rows.map((r) => (r.kind === 'fold' ? `~${r.count}` : kinds[r.at] === 'context' ? '.' : '*')).join('');

describe('foldDiff', () => {
  const cases: { name: string; before: string; after: string; picture: string; hidden: number }[] = [
    {
      name: 'one change in the middle: 3 lines of context each side, the rest folded',
      before: file(20),
      after: edit(20, [10]),
      picture: '~6...*...~7',
      hidden: 13,
    },
    {
      name: 'a change on the first line: nothing to fold above it',
      before: file(20),
      after: edit(20, [1]),
      picture: '*...~16',
      hidden: 16,
    },
    {
      name: 'a change on the last line: nothing to fold below it',
      before: file(20),
      after: edit(20, [20]),
      picture: '~16...*',
      hidden: 16,
    },
    {
      name: 'seven unchanged lines between two changes are shown: a fold would hide one line',
      before: file(30),
      after: edit(30, [10, 18]),
      picture: '~6...*.......*...~9',
      hidden: 15,
    },
    {
      name: 'eight unchanged lines between two changes fold two of them',
      before: file(30),
      after: edit(30, [10, 19]),
      picture: '~6...*...~2...*...~8',
      hidden: 16,
    },
    {
      name: 'a run one line longer than the context is shown, not folded',
      before: file(8),
      after: edit(8, [4]),
      picture: '...*....',
      hidden: 0,
    },
    {
      name: 'CRLF files fold like LF files',
      before: file(20, '\r\n'),
      after: edit(20, [10], '\r\n'),
      picture: '~6...*...~7',
      hidden: 13,
    },
    {
      name: 'no newline at the end of either side is no change',
      before: file(20).slice(0, -1),
      after: edit(20, [10]),
      picture: '~6...*...~7',
      hidden: 13,
    },
    {
      name: 'a new file has nothing to fold',
      before: '',
      after: file(5),
      picture: '*****',
      hidden: 0,
    },
  ];
  it.each(cases)('$name', ({ before, after, picture: want, hidden }) => {
    const m = buildDiffModel(before, after, before === '');
    const f = foldDiff(m, 'split', false);
    expect(
      picture(
        f.rows,
        m.split.map((r) => r.kind),
      ),
    ).toBe(want);
    expect(f.hidden).toBe(hidden);
    // Every line of the file is a row or inside a fold.
    expect(linesIn(f.rows, 0, f.rows.length)).toBe(m.split.length);
  });

  it('unified rows fold the same runs; deletions and insertions are one change', () => {
    const m = buildDiffModel(file(20), edit(20, [10]), false);
    const f = foldDiff(m, 'unified', false);
    expect(
      picture(
        f.rows,
        m.unified.map((r) => r.kind),
      ),
    ).toBe('~6...**...~7');
    expect(f.changes).toEqual([4]);
    expect(f.changeLines).toEqual([10]);
  });

  it('counts changes and their lines, and unfolds to every row', () => {
    const m = buildDiffModel(file(2000), edit(2000, [100, 1000, 1900]), false);
    const f = foldDiff(m, 'split', false);
    expect(f.changes).toHaveLength(3);
    expect(f.changeLines).toEqual([100, 1000, 1900]);
    expect(f.rows.filter((r) => r.kind === 'fold').map((r) => (r.kind === 'fold' ? r.count : 0))).toEqual([
      96, 893, 893, 97,
    ]);
    const all = foldDiff(m, 'split', true);
    expect(all.rows).toHaveLength(2000);
    expect(all.changes).toEqual([99, 999, 1899]);
    expect(foldDiff(m, 'split', false)).toBe(f);
  });

  it('a pure deletion is at the line after what it removed', () => {
    const before = file(20);
    const after = before.replace('line 10\n', '');
    const f = foldDiff(buildDiffModel(before, after, false), 'split', false);
    expect(f.changeLines).toEqual([10]);
  });

  it('keeps CONTEXT at 3', () => expect(CONTEXT).toBe(3));
});

describe('currentChange and changeOffset', () => {
  const changes = [4, 12, 20];
  it.each([
    { offset: 0, viewport: 10, stored: undefined, want: 0 },
    { offset: 10, viewport: 5, stored: undefined, want: 1 },
    { offset: 13, viewport: 5, stored: undefined, want: 1 },
    { offset: 21, viewport: 5, stored: undefined, want: 2 },
    { offset: 0, viewport: 40, stored: 2, want: 2 },
    { offset: 0, viewport: 40, stored: 9, want: 0 },
  ])('offset $offset viewport $viewport stored $stored → $want', ({ offset, viewport, stored, want }) => {
    expect(currentChange(changes, offset, viewport, stored)).toBe(want);
  });
  it('a jump shows the fold row and the context above the change', () => {
    expect(changeOffset(changes, 1)).toBe(8);
    expect(changeOffset([2], 0)).toBe(0);
  });
  it('in a short view the lead shrinks so the change keeps half the rows (issue 33: − and + both in view)', () => {
    // 5 rows: 1 above, the change's − and + rows and 2 more below.
    expect(changeOffset([40], 0, 5)).toBe(39);
    expect(changeOffset([40], 0, 3)).toBe(40);
    expect(changeOffset([40], 0, 10)).toBe(36);
  });
});
