/**
 * The rows in view of a folded diff as printable cells, pure. Only these rows are tab-expanded,
 * word-diffed, highlighted and windowed, so a frame costs O(rows in view) however large the file.
 * Every changed cell carries a `-` or `+` marker, so a capture without colour still shows the change.
 */
import { displayLine } from '../../../src/text/wrap';
import { mergeTokens, type Segment, type TokenSegment, windowSegments, wordSegments } from './diff-line';
import { type FoldedDiff, linesIn } from './diff-fold';
import { clampOffset, type DiffLayout, type DiffModel, splitRow, unifiedRow } from './diff-rows';

export type Tone = 'context' | 'removed' | 'added' | 'empty';
export type Marker = ' ' | '-' | '+';
export type Cell = { no?: number; tone: Tone; marker: Marker; segments: Segment[] };

/** One printable row: a fold, two cells side by side, or one unified cell with both line numbers. */
export type VisibleRow =
  | { kind: 'fold'; count: number }
  | { kind: 'split'; cells: [Cell, Cell] }
  | { kind: 'unified'; oldNo?: number; newNo?: number; cell: Cell };

export type Projection = {
  rows: VisibleRow[];
  gutter: number;
  /** Unified rows show both line numbers, except for a new file (there is no old side). */
  gutters: 1 | 2;
  colWidth: number;
  /** Rows of the folded view above and below the window. */
  above: number;
  below: number;
  /** Lines of the file those rows stand for (a fold stands for its run). */
  linesAbove: number;
  linesBelow: number;
  total: number;
};

/** What a highlighter gives for one display line; undefined: show it plain. */
export type LineHighlighter = (line: string) => readonly TokenSegment[] | undefined;

export type ViewWindow = { offset: number; height: number; width: number; shift: number };

/** Characters of a line prepared for display: past this a line is cut before windowing. */
const LINE_LIMIT = 200_000;

/** Line-number cells for the file's longest line number. */
export function gutterWidth(model: DiffModel): number {
  return String(Math.max(model.oldLines.length, model.newLines.length, 1)).length;
}

/** Cells of one side's text: side by side halves the width after gutters, markers and the divider. */
export function columnWidth(model: DiffModel, layout: DiffLayout, width: number): number {
  const gutter = gutterWidth(model);
  const gutters = model.isNew ? 1 : 2;
  return layout === 'split'
    ? Math.max(1, Math.floor((width - 3 - 2 * (gutter + 3)) / 2))
    : Math.max(1, width - gutters * (gutter + 1) - 2);
}

/** Printable rows for the window [offset, offset+height) of the folded rows; offset is clamped. */
export function projectView(
  model: DiffModel,
  folded: FoldedDiff,
  layout: DiffLayout,
  win: ViewWindow,
  highlight?: LineHighlighter,
): Projection {
  const total = folded.rows.length;
  const gutter = gutterWidth(model);
  const start = clampOffset(win.offset, total, win.height);
  const end = Math.min(total, start + Math.max(0, win.height));
  const colWidth = columnWidth(model, layout, win.width);
  const line = (side: 'old' | 'new', no: number) =>
    displayLine(((side === 'old' ? model.oldLines : model.newLines)[no - 1] ?? '').slice(0, LINE_LIMIT));
  const cell = (no: number | undefined, tone: Tone, segments: Segment[]): Cell => ({
    no,
    tone,
    marker: tone === 'removed' ? '-' : tone === 'added' ? '+' : ' ',
    segments: windowSegments(
      highlight ? mergeTokens(segments, highlight(plainText(segments))) : segments,
      colWidth,
      win.shift,
    ),
  });
  const plain = (no: number | undefined, tone: Tone, text: string) =>
    cell(no, tone, text ? [{ text, changed: false }] : []);
  const rows: VisibleRow[] = [];
  for (let i = start; i < end; i++) {
    const f = folded.rows[i];
    if (!f) break;
    if (f.kind === 'fold') {
      rows.push({ kind: 'fold', count: f.count });
      continue;
    }
    if (layout === 'split') {
      const r = splitRow(model, f.at);
      if (!r) break;
      if (r.kind === 'context')
        rows.push({
          kind: 'split',
          cells: [
            plain(r.oldNo, 'context', line('old', r.oldNo)),
            plain(r.newNo, 'context', line('new', r.newNo)),
          ],
        });
      else if (r.kind === 'change') {
        const w = wordSegments(line('old', r.oldNo), line('new', r.newNo));
        rows.push({ kind: 'split', cells: [cell(r.oldNo, 'removed', w.old), cell(r.newNo, 'added', w.new)] });
      } else if (r.kind === 'delete')
        rows.push({
          kind: 'split',
          cells: [plain(r.oldNo, 'removed', line('old', r.oldNo)), plain(undefined, 'empty', '')],
        });
      else
        rows.push({
          kind: 'split',
          cells: [plain(undefined, 'empty', ''), plain(r.newNo, 'added', line('new', r.newNo))],
        });
      continue;
    }
    const r = unifiedRow(model, f.at);
    if (!r) break;
    if (r.kind === 'context')
      rows.push({
        kind: 'unified',
        oldNo: r.oldNo,
        newNo: r.newNo,
        cell: plain(r.newNo, 'context', line('new', r.newNo)),
      });
    else if (r.kind === 'delete') {
      const segs =
        r.pairNo === undefined
          ? [{ text: line('old', r.oldNo), changed: false }]
          : wordSegments(line('old', r.oldNo), line('new', r.pairNo)).old;
      rows.push({ kind: 'unified', oldNo: r.oldNo, cell: cell(r.oldNo, 'removed', segs) });
    } else {
      const segs =
        r.pairNo === undefined
          ? [{ text: line('new', r.newNo), changed: false }]
          : wordSegments(line('old', r.pairNo), line('new', r.newNo)).new;
      rows.push({ kind: 'unified', newNo: r.newNo, cell: cell(r.newNo, 'added', segs) });
    }
  }
  return {
    rows,
    gutter,
    gutters: model.isNew ? 1 : 2,
    colWidth,
    above: start,
    below: Math.max(0, total - end),
    linesAbove: linesIn(folded.rows, 0, start),
    linesBelow: linesIn(folded.rows, end, total),
    total,
  };
}

function plainText(segments: readonly Segment[]): string {
  return segments.length === 1 ? (segments[0]?.text ?? '') : segments.map((s) => s.text).join('');
}

/** The widest line among rows [from, to) of the folded view, in characters (bounds ← → scrolling). */
export function widestLine(
  model: DiffModel,
  folded: FoldedDiff,
  layout: DiffLayout,
  from: number,
  to: number,
): number {
  let widest = 0;
  for (let i = Math.max(0, from); i < Math.min(to, folded.rows.length); i++) {
    const f = folded.rows[i];
    if (f?.kind !== 'row') continue;
    const r = layout === 'split' ? splitRow(model, f.at) : unifiedRow(model, f.at);
    if (!r) continue;
    if ('oldNo' in r) widest = Math.max(widest, model.oldLines[r.oldNo - 1]?.length ?? 0);
    if ('newNo' in r) widest = Math.max(widest, model.newLines[r.newNo - 1]?.length ?? 0);
  }
  return Math.min(widest, LINE_LIMIT);
}
