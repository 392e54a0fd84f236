/**
 * A diff as runs of rows, one per block of the line diff: unchanged lines, or one change (its
 * removed lines paired with its added lines). A run knows where it starts in both layouts, so any
 * row is found by a binary search and nothing is built per line: folding, the jump list and the rows
 * in view cost O(runs + rows shown), however long the file.
 */
import type { LineBlock } from '../../../src/text/line-diff';

export type DiffLayout = 'split' | 'unified';

/** A side-by-side row; numbers are 1-based line numbers into the old and new text. */
export type SplitRow =
  | { kind: 'context'; oldNo: number; newNo: number }
  | { kind: 'change'; oldNo: number; newNo: number }
  | { kind: 'delete'; oldNo: number }
  | { kind: 'insert'; newNo: number };

/** A unified row; `pairNo` is the line on the other side it replaces (for word highlighting). */
export type UnifiedRow =
  | { kind: 'context'; oldNo: number; newNo: number }
  | { kind: 'delete'; oldNo: number; pairNo?: number }
  | { kind: 'insert'; newNo: number; pairNo?: number };

/**
 * `oldCount` lines from old line `old` and `newCount` lines from new line `new` (1-based): the same
 * lines on both sides (equal counts), or a change (removed lines, then added lines). `split` and
 * `unified` are the run's first row in each layout.
 */
export type DiffRun = {
  kind: 'same' | 'change';
  old: number;
  new: number;
  oldCount: number;
  newCount: number;
  split: number;
  unified: number;
};

/** Rows a run spans in a layout: side by side pairs a change's lines, unified lists them all. */
export function runRows(run: DiffRun, layout: DiffLayout): number {
  if (run.kind === 'same') return run.oldCount;
  return layout === 'split' ? Math.max(run.oldCount, run.newCount) : run.oldCount + run.newCount;
}

/** Runs of `blocks` (a removed block followed by an added block is one change), and their totals. */
export function runsFromBlocks(blocks: readonly LineBlock[]): {
  runs: DiffRun[];
  added: number;
  removed: number;
} {
  const runs: DiffRun[] = [];
  const at = { old: 1, new: 1, split: 0, unified: 0 };
  let added = 0;
  let removed = 0;
  const push = (kind: DiffRun['kind'], r: number, a: number) => {
    const last = runs[runs.length - 1];
    // Two blocks of the same lines next to each other (a fallback diff may give them) are one run.
    if (kind === 'same' && last?.kind === 'same') {
      last.oldCount += r;
      last.newCount += a;
    } else
      runs.push({
        kind,
        old: at.old,
        new: at.new,
        oldCount: r,
        newCount: a,
        split: at.split,
        unified: at.unified,
      });
    const run = runs[runs.length - 1] as DiffRun;
    at.old += r;
    at.new += a;
    at.split = run.split + runRows(run, 'split');
    at.unified = run.unified + runRows(run, 'unified');
  };
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as LineBlock;
    if (b.count === 0) continue;
    if (b.kind === 'same') {
      push('same', b.count, b.count);
      continue;
    }
    let r = 0;
    let a = 0;
    if (b.kind === 'added') a = b.count;
    else {
      r = b.count;
      const next = blocks[i + 1];
      if (next?.kind === 'added') {
        a = next.count;
        i++;
      }
    }
    push('change', r, a);
    removed += r;
    added += a;
  }
  return { runs, added, removed };
}

/** The index of the run holding row `row` of `layout` (runs are in row order), or -1. */
export function runAt(runs: readonly DiffRun[], layout: DiffLayout, row: number): number {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const run = runs[mid] as DiffRun;
    if (row < run[layout]) hi = mid - 1;
    else if (row >= run[layout] + runRows(run, layout)) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Row `k` of a run, side by side. */
export function splitRowOf(run: DiffRun, k: number): SplitRow {
  if (run.kind === 'same') return { kind: 'context', oldNo: run.old + k, newNo: run.new + k };
  const pairs = Math.min(run.oldCount, run.newCount);
  if (k < pairs) return { kind: 'change', oldNo: run.old + k, newNo: run.new + k };
  if (k < run.oldCount) return { kind: 'delete', oldNo: run.old + k };
  return { kind: 'insert', newNo: run.new + k };
}

/** Row `k` of a run, unified: a change lists its removed lines, then its added lines. */
export function unifiedRowOf(run: DiffRun, k: number): UnifiedRow {
  if (run.kind === 'same') return { kind: 'context', oldNo: run.old + k, newNo: run.new + k };
  const pairs = Math.min(run.oldCount, run.newCount);
  if (k < run.oldCount)
    return { kind: 'delete', oldNo: run.old + k, pairNo: k < pairs ? run.new + k : undefined };
  const j = k - run.oldCount;
  return { kind: 'insert', newNo: run.new + j, pairNo: j < pairs ? run.old + j : undefined };
}

/** Every row of a layout (tests and small views; the card looks rows up one by one). */
export function listRows(runs: readonly DiffRun[], layout: 'split'): SplitRow[];
export function listRows(runs: readonly DiffRun[], layout: 'unified'): UnifiedRow[];
export function listRows(runs: readonly DiffRun[], layout: DiffLayout): (SplitRow | UnifiedRow)[] {
  const rows: (SplitRow | UnifiedRow)[] = [];
  for (const run of runs)
    for (let k = 0; k < runRows(run, layout); k++)
      rows.push(layout === 'split' ? splitRowOf(run, k) : unifiedRowOf(run, k));
  return rows;
}
