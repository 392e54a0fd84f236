/**
 * Pure diff model for the approval drawer. `buildDiffModel` runs the line diff once per request;
 * diff-fold.ts folds its rows and diff-project.ts turns only the rows in view into printable cells,
 * so word diffs, tab expansion and cuts cost O(visible rows) however large the file is.
 */
import { fit } from '../../../src/text/wrap';
import { diffLines } from 'diff';
import { diffLineBlocks, type LineBlock } from '../../../src/text/line-diff';

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

export type DiffModel = {
  oldLines: string[];
  newLines: string[];
  isNew: boolean;
  /** The line diff gave up (too large and too different) and shows a whole replacement. */
  approximate: boolean;
  split: SplitRow[];
  unified: UnifiedRow[];
  added: number;
  removed: number;
  /** First row of each block of changes, per layout. */
  hunks: Record<DiffLayout, number[]>;
};

/** Above this many milliseconds the line diff gives up and shows a whole replacement. */
const DIFF_TIMEOUT_MS = 1000;

/** Splits text into lines the way `diffLines` counts them (a final newline adds no line). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Lines as `splitLines` counts them, each keeping its CR. */
function rawLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Runs the line diff once. Contract: never throws; a diff that times out becomes a replacement. */
export function buildDiffModel(
  before: string,
  after: string,
  isNew: boolean,
  timeoutMs: number = DIFF_TIMEOUT_MS,
): DiffModel {
  const oldLines = isNew ? [] : splitLines(before);
  const newLines = splitLines(after);
  const blocks: { kind: 'same' | 'removed' | 'added'; count: number }[] = [];
  let approximate = false;
  if (oldLines.length === 0 || newLines.length === 0) {
    if (oldLines.length) blocks.push({ kind: 'removed', count: oldLines.length });
    if (newLines.length) blocks.push({ kind: 'added', count: newLines.length });
  } else {
    // Compared with their line ends, so a CRLF → LF rewrite shows as the change it is.
    const deadline = performance.now() + timeoutMs;
    // Many differences: jsdiff's diff (no trace to keep) with the time that is left.
    const changes =
      diffLineBlocks(rawLines(before), rawLines(after), deadline) ??
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
  return { oldLines, newLines, isNew, approximate, ...rowsFromBlocks(blocks) };
}

function rowsFromBlocks(blocks: { kind: 'same' | 'removed' | 'added'; count: number }[]) {
  const split: SplitRow[] = [];
  const unified: UnifiedRow[] = [];
  const hunks: Record<DiffLayout, number[]> = { split: [], unified: [] };
  let o = 1;
  let n = 1;
  let added = 0;
  let removed = 0;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (!b) continue;
    if (b.kind === 'same') {
      for (let k = 0; k < b.count; k++) {
        split.push({ kind: 'context', oldNo: o, newNo: n });
        unified.push({ kind: 'context', oldNo: o++, newNo: n++ });
      }
      continue;
    }
    // A removed block followed by an added block is a replacement: pair its lines.
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
    removed += r;
    added += a;
  }
  return { split, unified, hunks, added, removed };
}

/** The layout actually shown: new files and narrow terminals get one column. */
export function effectiveLayout(model: DiffModel, preferred: DiffLayout, width: number): DiffLayout {
  return model.isNew || width < 100 ? 'unified' : preferred;
}

/** Rows in a layout. */
export function rowCount(model: DiffModel, layout: DiffLayout): number {
  return layout === 'split' ? model.split.length : model.unified.length;
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
