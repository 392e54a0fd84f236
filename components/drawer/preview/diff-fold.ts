/**
 * The folded view of a diff, pure: changed rows with CONTEXT rows around them, each longer run of
 * unchanged rows collapsed into one fold row ("⋯ 846 unchanged lines"), and where each change
 * starts, for the jump keys and the header's "change 2 of 3 · line 1000". Built once per model,
 * layout and fold state (memoised on the model), in one pass over the diff's runs: folded, its cost
 * is the rows it keeps, not the file's length.
 */
import type { DiffModel } from './diff-rows';
import { type DiffLayout, type DiffRun, runRows } from './diff-runs';

/** Unchanged rows kept on each side of a change. */
export const CONTEXT = 3;
/** A run this short is shown: one fold row in place of one line saves nothing. */
const MIN_FOLD = 2;
/** Rows a jump keeps above the change: its context and the fold row above that. */
export const JUMP_LEAD = CONTEXT + 1;

/** A row of the folded view: a row of the layout (by index), or a run of `count` unchanged rows from `at`. */
export type FoldRow = { kind: 'row'; at: number } | { kind: 'fold'; at: number; count: number };

export type FoldedDiff = {
  rows: FoldRow[];
  /** Index in `rows` of the first row of each change (a block of changed rows). */
  changes: number[];
  /** The line each change is at in the new file (where a deletion was, for a pure deletion). */
  changeLines: number[];
  /** Unchanged rows hidden in folds. */
  hidden: number;
};

const cache = new WeakMap<DiffModel, Map<string, FoldedDiff>>();

/** The folded (or, `unfolded`, every) row of `layout`. Memoised per model: cheap to call each render. */
export function foldDiff(model: DiffModel, layout: DiffLayout, unfolded: boolean): FoldedDiff {
  let byKey = cache.get(model);
  if (!byKey) {
    byKey = new Map();
    cache.set(model, byKey);
  }
  const key = `${layout}:${unfolded}`;
  const hit = byKey.get(key);
  if (hit) return hit;
  const folded = buildFolds(model, layout, unfolded);
  byKey.set(key, folded);
  return folded;
}

function buildFolds(model: DiffModel, layout: DiffLayout, unfolded: boolean): FoldedDiff {
  const runs = model.runs;
  const last = runs[runs.length - 1];
  const n = last ? last[layout] + runRows(last, layout) : 0;
  const rows: FoldRow[] = [];
  const changes: number[] = [];
  const changeLines: number[] = [];
  let hidden = 0;
  let r = 0;
  while (r < runs.length) {
    const run = runs[r] as DiffRun;
    if (run.kind === 'change') {
      // A change: every row up to the next unchanged one (runs of changes next to each other are one).
      // Its line in the new file is where its first new line is, or would be.
      changes.push(rows.length);
      changeLines.push(run.new);
      for (; r < runs.length && runs[r]?.kind === 'change'; r++) {
        const c = runs[r] as DiffRun;
        for (let k = 0, at = c[layout]; k < runRows(c, layout); k++) rows.push({ kind: 'row', at: at + k });
      }
      continue;
    }
    const i = run[layout];
    const end = i + runRows(run, layout);
    // Keep CONTEXT rows after the change before the run and before the change after it.
    const keepHead = i === 0 ? 0 : CONTEXT;
    const keepTail = end === n ? 0 : CONTEXT;
    const foldCount = end - i - keepHead - keepTail;
    if (unfolded || foldCount < MIN_FOLD) {
      for (let k = i; k < end; k++) rows.push({ kind: 'row', at: k });
    } else {
      for (let k = i; k < i + keepHead; k++) rows.push({ kind: 'row', at: k });
      rows.push({ kind: 'fold', at: i + keepHead, count: foldCount });
      hidden += foldCount;
      for (let k = end - keepTail; k < end; k++) rows.push({ kind: 'row', at: k });
    }
    r++;
  }
  return { rows, changes, changeLines, hidden };
}

/** Lines a slice of rows stands for (a fold row stands for its whole run). */
export function linesIn(rows: readonly FoldRow[], from: number, to: number): number {
  let count = 0;
  for (let i = Math.max(0, from); i < Math.min(to, rows.length); i++) {
    const r = rows[i];
    count += r?.kind === 'fold' ? r.count : 1;
  }
  return count;
}

/**
 * The change the view is at: `stored` when a jump put it there, otherwise the first change that
 * starts in view, else the last one above it. Contract: 0 when there are no changes.
 */
export function currentChange(
  changes: readonly number[],
  offset: number,
  viewport: number,
  stored?: number,
): number {
  if (stored !== undefined && stored >= 0 && stored < changes.length) return stored;
  const inView = changes.findIndex((c) => c >= offset && c < offset + viewport);
  if (inView >= 0) return inView;
  let last = 0;
  for (let k = 0; k < changes.length; k++) if ((changes[k] ?? 0) < offset) last = k;
  return last;
}

/**
 * The offset that shows change `k` with its context and the fold row above it. In a short view
 * (80x24) the lead shrinks to leave at least half the view to the change, so its `+` line is not
 * pushed below the `−` line out of sight.
 */
export function changeOffset(
  changes: readonly number[],
  k: number,
  viewport = Number.POSITIVE_INFINITY,
): number {
  const lead = Math.min(JUMP_LEAD, Math.max(0, Math.floor((viewport - 2) / 2)));
  return Math.max(0, (changes[k] ?? 0) - lead);
}
