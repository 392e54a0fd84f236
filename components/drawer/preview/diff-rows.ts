/**
 * Pure diff model for the approval drawer. `buildDiffModel` runs the line diff once per request and
 * keeps it as runs (diff-runs.ts); diff-fold.ts folds them and diff-project.ts turns only the rows in
 * view into printable cells, so word diffs, tab expansion and cuts cost O(visible rows) however
 * large the file is. The full row lists are built only if asked for.
 */
import { fit } from '../../../src/text/wrap';
import { diffLines } from 'diff';
import { diffLineBlocks, type LineBlock } from '../../../src/text/line-diff';
import { rawLines, withoutLineEndCR } from '../../../src/text/text-lines';
import {
  type DiffLayout,
  type DiffRun,
  listRows,
  runAt,
  runRows,
  runsFromBlocks,
  type SplitRow,
  splitRowOf,
  type UnifiedRow,
  unifiedRowOf,
} from './diff-runs';

export type { DiffLayout, SplitRow, UnifiedRow } from './diff-runs';

export type DiffModel = {
  oldLines: string[];
  newLines: string[];
  isNew: boolean;
  /** The line diff gave up (too large and too different) and shows a whole replacement. */
  approximate: boolean;
  /** The diff as runs of rows, in order: what folding and row look-ups read. */
  runs: readonly DiffRun[];
  /** Every row of each layout, built on first use (the card never asks: it looks rows up). */
  readonly split: SplitRow[];
  readonly unified: UnifiedRow[];
  added: number;
  removed: number;
  /** First row of each block of changes, per layout. */
  readonly hunks: Record<DiffLayout, number[]>;
};

/** Above this many milliseconds the line diff gives up and shows a whole replacement. */
const DIFF_TIMEOUT_MS = 1000;

/** Splits text into lines the way `diffLines` counts them (a final newline adds no line). */
export function splitLines(text: string): string[] {
  return withoutLineEndCR(rawLines(text), text);
}

/** Runs the line diff once. Contract: never throws; a diff that times out becomes a replacement. */
export function buildDiffModel(
  before: string,
  after: string,
  isNew: boolean,
  timeoutMs: number = DIFF_TIMEOUT_MS,
): DiffModel {
  // Split once: compared with their line ends (a CRLF → LF rewrite shows as the change it is),
  // shown without them.
  const oldRaw = isNew ? [] : rawLines(before);
  const newRaw = rawLines(after);
  const oldLines = isNew ? [] : withoutLineEndCR(oldRaw, before);
  const newLines = withoutLineEndCR(newRaw, after);
  const blocks: LineBlock[] = [];
  let approximate = false;
  if (oldLines.length === 0 || newLines.length === 0) {
    if (oldLines.length) blocks.push({ kind: 'removed', count: oldLines.length });
    if (newLines.length) blocks.push({ kind: 'added', count: newLines.length });
  } else {
    const deadline = performance.now() + timeoutMs;
    // Many differences: jsdiff's diff (no trace to keep) with the time that is left.
    const changes =
      diffLineBlocks(oldRaw, newRaw, deadline) ??
      diffLines(before, after, {
        timeout: Math.max(1, deadline - performance.now()),
        ignoreNewlineAtEof: true,
      })?.map(
        (c): LineBlock => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', count: c.count }),
      );
    if (changes) blocks.push(...changes);
    else {
      approximate = true;
      blocks.push({ kind: 'removed', count: oldLines.length }, { kind: 'added', count: newLines.length });
    }
  }
  const { runs, added, removed } = runsFromBlocks(blocks);
  let split: SplitRow[] | undefined;
  let unified: UnifiedRow[] | undefined;
  return {
    oldLines,
    newLines,
    isNew,
    approximate,
    runs,
    get split() {
      split ??= listRows(runs, 'split');
      return split;
    },
    get unified() {
      unified ??= listRows(runs, 'unified');
      return unified;
    },
    added,
    removed,
    get hunks() {
      const changes = runs.filter((r) => r.kind === 'change');
      return { split: changes.map((r) => r.split), unified: changes.map((r) => r.unified) };
    },
  };
}

/** Row `at` of the side-by-side layout (undefined past the end). */
export function splitRow(model: DiffModel, at: number): SplitRow | undefined {
  const i = runAt(model.runs, 'split', at);
  const run = model.runs[i];
  return run && splitRowOf(run, at - run.split);
}

/** Row `at` of the unified layout (undefined past the end). */
export function unifiedRow(model: DiffModel, at: number): UnifiedRow | undefined {
  const i = runAt(model.runs, 'unified', at);
  const run = model.runs[i];
  return run && unifiedRowOf(run, at - run.unified);
}

/** The layout actually shown: new files and narrow terminals get one column. */
export function effectiveLayout(model: DiffModel, preferred: DiffLayout, width: number): DiffLayout {
  return model.isNew || width < 100 ? 'unified' : preferred;
}

/** Rows in a layout. */
export function rowCount(model: DiffModel, layout: DiffLayout): number {
  const last = model.runs[model.runs.length - 1];
  return last ? last[layout] + runRows(last, layout) : 0;
}

/** Keeps a window of `height` rows inside `total` rows. */
export function clampOffset(offset: number, total: number, height: number): number {
  return Math.max(0, Math.min(offset, total - Math.max(1, height)));
}

/** "3" right-aligned in the gutter, or blanks for a row without that side. */
export function gutterText(no: number | undefined, gutter: number): string {
  return no === undefined ? ' '.repeat(gutter) : fit(String(no).padStart(gutter), gutter);
}

/** Models kept by key (a request id and argument hash, a review's path): the line diff runs once each. */
const MODELS = new Map<string, { model: DiffModel; size: string }>();
const MODELS_KEPT = 16;

/**
 * `buildDiffModel`, memoised by `key` (the last few kept; a key whose texts changed length is
 * rebuilt). Contract: never throws.
 */
export function cachedDiffModel(key: string, before: string, after: string, isNew: boolean): DiffModel {
  const size = `${before.length}:${after.length}:${isNew}`;
  const hit = MODELS.get(key);
  if (hit && hit.size === size) return hit.model;
  const model = buildDiffModel(before, after, isNew);
  MODELS.delete(key);
  MODELS.set(key, { model, size });
  if (MODELS.size > MODELS_KEPT) MODELS.delete(MODELS.keys().next().value as string);
  return model;
}
