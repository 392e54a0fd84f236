/**
 * Pure diff model for the approval drawer. `buildDiffModel` runs the line diff once per request;
 * `projectRows` turns only the rows in view into printable cells, so word diffs, tab expansion and
 * truncation cost O(visible rows) however large the file is.
 */
import { diffLines, diffWordsWithSpace } from 'diff';
import { displayLine, fit } from '../../../src/text/wrap';
import { takeWidth, textWidth } from '../../../src/text/width';

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

export type Segment = { text: string; changed: boolean };
export type Tone = 'context' | 'removed' | 'added' | 'empty';
export type Cell = { no?: number; tone: Tone; segments: Segment[] };
/**
 * One printable row: two cells side by side, or (unified) one cell with a +/-/space sign and the
 * old and new line numbers.
 */
export type VisibleRow = { sign?: ' ' | '-' | '+'; oldNo?: number; newNo?: number; cells: Cell[] };

export type Projection = {
  rows: VisibleRow[];
  gutter: number;
  /** Unified rows show both line numbers, except for a new file (there is no old side). */
  gutters: 1 | 2;
  colWidth: number;
  above: number;
  below: number;
  total: number;
};

/** Above this many milliseconds the line diff gives up and shows a whole replacement. */
const DIFF_TIMEOUT_MS = 1000;
/** Word diffs look at no more than this many characters of a line. */
const WORD_DIFF_LIMIT = 2000;
/** Characters of a line prepared for display; far more than any terminal is wide. */
const LINE_LIMIT = 4000;

/** Splits text into lines the way `diffLines` counts them (a final newline adds no line). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
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
    const changes = diffLines(isNew ? '' : before, after, {
      timeout: timeoutMs,
      ignoreNewlineAtEof: true,
    });
    if (changes) {
      for (const c of changes) {
        blocks.push({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', count: c.count });
      }
    } else {
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

/** Word-level segments of a changed line pair: what each side has that the other lacks. */
export function wordSegments(oldText: string, newText: string): { old: Segment[]; new: Segment[] } {
  const a = oldText.slice(0, WORD_DIFF_LIMIT);
  const b = newText.slice(0, WORD_DIFF_LIMIT);
  const old: Segment[] = [];
  const neu: Segment[] = [];
  for (const c of diffWordsWithSpace(a, b)) {
    if (!c.added) old.push({ text: c.value, changed: c.removed });
    if (!c.removed) neu.push({ text: c.value, changed: c.added });
  }
  if (oldText.length > a.length) old.push({ text: oldText.slice(a.length), changed: false });
  if (newText.length > b.length) neu.push({ text: newText.slice(b.length), changed: false });
  return { old, new: neu };
}

/** Cuts segments to `width` cells with an ellipsis, then pads with spaces to exactly `width`. */
export function fitSegments(segments: Segment[], width: number): Segment[] {
  const out: Segment[] = [];
  const fits = widthUpTo(segments, width + 1) <= width;
  let room = fits ? width : width - 1;
  for (const s of segments) {
    if (room <= 0) break;
    const text = takeWidth(s.text, room);
    if (text) out.push({ text, changed: s.changed });
    room -= textWidth(text);
  }
  const tail = fits ? '' : '…';
  if (tail || room > 0) out.push({ text: tail + ' '.repeat(Math.max(0, room)), changed: false });
  return out;
}

/** Width of the segments, counting no further than `limit` (long lines cost O(limit)). */
function widthUpTo(segments: Segment[], limit: number): number {
  let w = 0;
  for (const s of segments) {
    w += textWidth(takeWidth(s.text, limit - w));
    if (w >= limit) return w;
  }
  return w;
}

/**
 * Printable rows for the window [offset, offset+height). Only these rows are expanded, word-diffed
 * and truncated. `offset` is clamped to the rows available.
 */
export function projectRows(
  model: DiffModel,
  layout: DiffLayout,
  offset: number,
  height: number,
  width: number,
): Projection {
  const total = rowCount(model, layout);
  const maxNo = Math.max(model.oldLines.length, model.newLines.length, 1);
  const gutter = String(maxNo).length;
  const start = clampOffset(offset, total, height);
  const end = Math.min(total, start + Math.max(0, height));
  const rows: VisibleRow[] = [];
  const gutters = model.isNew ? 1 : 2;
  const colWidth =
    layout === 'split'
      ? Math.max(1, Math.floor((width - 3 - 2 * (gutter + 1)) / 2))
      : Math.max(1, width - gutters * (gutter + 1) - 2);
  // A line longer than LINE_LIMIT is wider than any column, so the rest is never shown.
  const line = (side: 'old' | 'new', no: number) =>
    displayLine(((side === 'old' ? model.oldLines : model.newLines)[no - 1] ?? '').slice(0, LINE_LIMIT));
  const plain = (no: number | undefined, tone: Tone, text: string): Cell => ({
    no,
    tone,
    segments: fitSegments([{ text, changed: false }], colWidth),
  });
  for (let i = start; i < end; i++) {
    if (layout === 'split') {
      const r = model.split[i];
      if (!r) break;
      if (r.kind === 'context') {
        rows.push({
          cells: [
            plain(r.oldNo, 'context', line('old', r.oldNo)),
            plain(r.newNo, 'context', line('new', r.newNo)),
          ],
        });
      } else if (r.kind === 'change') {
        const w = wordSegments(line('old', r.oldNo), line('new', r.newNo));
        rows.push({
          cells: [
            { no: r.oldNo, tone: 'removed', segments: fitSegments(w.old, colWidth) },
            { no: r.newNo, tone: 'added', segments: fitSegments(w.new, colWidth) },
          ],
        });
      } else if (r.kind === 'delete') {
        rows.push({
          cells: [plain(r.oldNo, 'removed', line('old', r.oldNo)), plain(undefined, 'empty', '')],
        });
      } else {
        rows.push({ cells: [plain(undefined, 'empty', ''), plain(r.newNo, 'added', line('new', r.newNo))] });
      }
      continue;
    }
    const r = model.unified[i];
    if (!r) break;
    if (r.kind === 'context') {
      rows.push({
        sign: ' ',
        oldNo: r.oldNo,
        newNo: r.newNo,
        cells: [plain(r.newNo, 'context', line('new', r.newNo))],
      });
    } else if (r.kind === 'delete') {
      const segs =
        r.pairNo === undefined
          ? [{ text: line('old', r.oldNo), changed: false }]
          : wordSegments(line('old', r.oldNo), line('new', r.pairNo)).old;
      rows.push({
        sign: '-',
        oldNo: r.oldNo,
        cells: [{ no: r.oldNo, tone: 'removed', segments: fitSegments(segs, colWidth) }],
      });
    } else {
      const segs =
        r.pairNo === undefined
          ? [{ text: line('new', r.newNo), changed: false }]
          : wordSegments(line('old', r.pairNo), line('new', r.newNo)).new;
      rows.push({
        sign: '+',
        newNo: r.newNo,
        cells: [{ no: r.newNo, tone: 'added', segments: fitSegments(segs, colWidth) }],
      });
    }
  }
  return { rows, gutter, gutters, colWidth, above: start, below: Math.max(0, total - end), total };
}

/** Keeps a window of `height` rows inside `total` rows. */
export function clampOffset(offset: number, total: number, height: number): number {
  return Math.max(0, Math.min(offset, total - Math.max(1, height)));
}

/** Where to open the view: a little context above the first change. */
export function initialOffset(model: DiffModel, layout: DiffLayout): number {
  const first = model.hunks[layout][0] ?? 0;
  return Math.max(0, first - 3);
}

/** "3" right-aligned in the gutter, or blanks for a row without that side. */
export function gutterText(no: number | undefined, gutter: number): string {
  return no === undefined ? ' '.repeat(gutter) : fit(String(no).padStart(gutter), gutter);
}
