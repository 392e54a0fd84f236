import { describe, expect, it } from 'vitest';
import { CONTEXT, type FoldRow, foldDiff } from '../../../../components/drawer/preview/diff-fold';
import {
  buildDiffModel,
  type DiffModel,
  splitRow,
  unifiedRow,
} from '../../../../components/drawer/preview/diff-rows';
import {
  type DiffLayout,
  listRows,
  runsFromBlocks,
  type SplitRow,
  type UnifiedRow,
} from '../../../../components/drawer/preview/diff-runs';
import type { LineBlock } from '../../../../src/text/line-diff';

/** The rows as the card built them before runs: every row of both layouts, from the blocks. */
function referenceRows(blocks: LineBlock[]) {
  const split: SplitRow[] = [];
  const unified: UnifiedRow[] = [];
  const hunks: Record<DiffLayout, number[]> = { split: [], unified: [] };
  let o = 1;
  let n = 1;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as LineBlock;
    if (b.kind === 'same') {
      for (let k = 0; k < b.count; k++) {
        split.push({ kind: 'context', oldNo: o, newNo: n });
        unified.push({ kind: 'context', oldNo: o++, newNo: n++ });
      }
      continue;
    }
    const next = blocks[i + 1];
    let r = 0;
    let a = 0;
    if (b.kind === 'added') a = b.count;
    else {
      r = b.count;
      if (next?.kind === 'added') {
        a = next.count;
        i++;
      }
    }
    hunks.split.push(split.length);
    hunks.unified.push(unified.length);
    const pairs = Math.min(r, a);
    for (let k = 0; k < Math.max(r, a); k++) {
      if (k < pairs) split.push({ kind: 'change', oldNo: o + k, newNo: n + k });
      else if (k < r) split.push({ kind: 'delete', oldNo: o + k });
      else split.push({ kind: 'insert', newNo: n + k });
    }
    for (let k = 0; k < r; k++)
      unified.push({ kind: 'delete', oldNo: o + k, pairNo: k < pairs ? n + k : undefined });
    for (let k = 0; k < a; k++)
      unified.push({ kind: 'insert', newNo: n + k, pairNo: k < pairs ? o + k : undefined });
    o += r;
    n += a;
  }
  return { split, unified, hunks };
}

/** The fold as the card built it before runs: one pass over every row. */
function referenceFold(src: (SplitRow | UnifiedRow)[], unfolded: boolean) {
  const isContext = (i: number) => src[i]?.kind === 'context';
  const rows: FoldRow[] = [];
  const changes: number[] = [];
  const changeLines: number[] = [];
  let hidden = 0;
  let lastNew = 0;
  let i = 0;
  while (i < src.length) {
    if (!isContext(i)) {
      changes.push(rows.length);
      const first = src[i];
      changeLines.push(first && 'newNo' in first ? first.newNo : lastNew + 1);
      while (i < src.length && !isContext(i)) {
        const r = src[i];
        if (r && 'newNo' in r) lastNew = r.newNo;
        rows.push({ kind: 'row', at: i++ });
      }
      continue;
    }
    let end = i;
    while (end < src.length && isContext(end)) end++;
    const r = src[end - 1];
    if (r && 'newNo' in r) lastNew = r.newNo;
    const keepHead = i === 0 ? 0 : CONTEXT;
    const keepTail = end === src.length ? 0 : CONTEXT;
    const foldCount = end - i - keepHead - keepTail;
    if (unfolded || foldCount < 2) for (let k = i; k < end; k++) rows.push({ kind: 'row', at: k });
    else {
      for (let k = i; k < i + keepHead; k++) rows.push({ kind: 'row', at: k });
      rows.push({ kind: 'fold', at: i + keepHead, count: foldCount });
      hidden += foldCount;
      for (let k = end - keepTail; k < end; k++) rows.push({ kind: 'row', at: k });
    }
    i = end;
  }
  return { rows, changes, changeLines, hidden };
}

let seed = 5;
const rand = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};
/** Blocks as either diff may give them: also an added block before a removed one, and two same blocks in a row. */
const randomBlocks = (): LineBlock[] =>
  Array.from({ length: 1 + rand(8) }, () => ({
    kind: (['same', 'same', 'removed', 'added'] as const)[rand(4)] as LineBlock['kind'],
    count: 1 + rand(12),
  }));

describe('runs of a diff', () => {
  it('list and fold the rows the card built from the blocks, in both layouts', () => {
    for (let t = 0; t < 300; t++) {
      const blocks = randomBlocks();
      const ref = referenceRows(blocks);
      const { runs } = runsFromBlocks(blocks);
      expect(listRows(runs, 'split')).toEqual(ref.split);
      expect(listRows(runs, 'unified')).toEqual(ref.unified);
      // Folding reads only the runs: a change made of an added block then a removed one is one change.
      const model = { runs } as unknown as DiffModel;
      for (const layout of ['split', 'unified'] as const)
        for (const unfolded of [false, true])
          expect(foldDiff(model, layout, unfolded)).toEqual(referenceFold(ref[layout], unfolded));
    }
  });

  it('merge two unchanged blocks next to each other into one run', () => {
    const { runs } = runsFromBlocks([
      { kind: 'same', count: 2 },
      { kind: 'same', count: 3 },
      { kind: 'added', count: 1 },
    ]);
    expect(runs.map((r) => [r.kind, r.split, r.oldCount])).toEqual([
      ['same', 0, 5],
      ['change', 5, 0],
    ]);
  });
});

describe('a model read through its runs', () => {
  const file = (n: number, changed: number[] = [], removed: number[] = []) =>
    Array.from({ length: n }, (_, i) => i + 1)
      .filter((no) => !removed.includes(no))
      .map((no) => (changed.includes(no) ? `line ${no} CHANGED\nline ${no} added` : `line ${no}`))
      .join('\n');
  const models = [
    buildDiffModel(file(60), file(60, [1, 9, 30, 31, 60], [20, 45]), false),
    buildDiffModel(file(8), file(8, [4]), false),
    buildDiffModel('', file(5), true),
    buildDiffModel(file(5), '', false),
    buildDiffModel('a\r\nb\r\n', 'a\nb\n', false),
  ];

  it.each(models.map((m, i) => ({ m, i })))(
    'model $i: rows, folds and hunks as the full row lists give them',
    ({ m }) => {
      const ref = referenceRows(
        m.runs.flatMap((r): LineBlock[] =>
          r.kind === 'same'
            ? [{ kind: 'same', count: r.oldCount }]
            : [
                ...(r.oldCount ? [{ kind: 'removed' as const, count: r.oldCount }] : []),
                ...(r.newCount ? [{ kind: 'added' as const, count: r.newCount }] : []),
              ],
        ),
      );
      expect(m.split).toEqual(ref.split);
      expect(m.unified).toEqual(ref.unified);
      expect(m.hunks).toEqual(ref.hunks);
      ref.split.forEach((row, at) => expect(splitRow(m, at)).toEqual(row));
      ref.unified.forEach((row, at) => expect(unifiedRow(m, at)).toEqual(row));
      expect(splitRow(m, ref.split.length)).toBeUndefined();
      for (const layout of ['split', 'unified'] as const)
        for (const unfolded of [false, true])
          expect(foldDiff(m, layout, unfolded)).toEqual(referenceFold(ref[layout], unfolded));
    },
  );

  it('folds random diffs as the full row lists did', () => {
    for (let t = 0; t < 200; t++) {
      const lines = Array.from({ length: 5 + rand(60) }, (_, i) => `l${i}`);
      const after = lines.flatMap((l) =>
        rand(9) === 0 ? [] : rand(9) === 0 ? [`${l}!`] : rand(12) === 0 ? [l, `n${rand(99)}`] : [l],
      );
      const m = buildDiffModel(`${lines.join('\n')}\n`, `${after.join('\n')}\n`, false);
      for (const layout of ['split', 'unified'] as const)
        expect(foldDiff(m, layout, false)).toEqual(referenceFold(m[layout], false));
    }
  });
});
