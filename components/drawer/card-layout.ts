/**
 * Where the card's rows go, pure: the detail lines that fit, the body's height, and the preview's
 * metrics (rows in total, rows in view, where it starts) that scroll keys need.
 */
import type { ApprovalRequest } from '../../src/protocol';
import { approvalDetailLines, compactDetailLines, type DetailLine } from './approval-details';
import type { CardView } from './drawer-state';
import { cardKind } from './card-kinds';
import type { PreviewLine } from './preview/approval-lines';
import { changeOffset, currentChange, type FoldedDiff, foldDiff } from './preview/diff-fold';
import { columnWidth, widestLine } from './preview/diff-project';
import { type DiffLayout, type DiffModel, effectiveLayout } from './preview/diff-rows';

export type CardGeometry = { lines: DetailLine[]; detailRows: number; bodyHeight: number };

/** The detail lines and the body height of a card `height` rows tall. */
export function cardGeometry(
  request: ApprovalRequest,
  size: { width: number; height: number; fullScreen: boolean },
  nowMs: number,
  parentName?: string,
): CardGeometry {
  const { width, height } = size;
  // Full details need room; short drawers and full screen keep what, risk and a refused edit.
  const full = approvalDetailLines(request, width, nowMs, parentName);
  const lines = size.fullScreen || full.length > height - 8 ? compactDetailLines(request, width) : full;
  const detailRows = Math.min(lines.length, Math.max(1, height - 4));
  return { lines, detailRows, bodyHeight: Math.max(3, height - detailRows - 1) };
}

/** The prepared lines of a preview that scrolls lines (a command, a plan, the arguments); diffs and forms have none. */
export function previewLines(request: ApprovalRequest, width: number): PreviewLine[] | undefined {
  return cardKind(request).lines?.(request.preview, request, width);
}

/** What the preview body shows and how it scrolls. */
export type CardPreview = {
  model?: DiffModel;
  /** Diff cards: the folded rows in view order, the change in view and the sideways scroll. */
  folded?: FoldedDiff;
  change?: number;
  shift?: number;
  lines?: PreviewLine[];
  layout: DiffLayout;
  offset: number;
  view: CardView;
};

/** The preview's layout, metrics and offset; `scroll` is the card's offset as keys moved it. */
export function cardPreview(
  request: ApprovalRequest,
  content: { model?: DiffModel; lines?: PreviewLine[] },
  size: { width: number; bodyHeight: number },
  preferred: DiffLayout,
  scroll: number | undefined,
  diff: { change?: number; unfolded?: boolean; shift?: number } = {},
): CardPreview {
  const { model, lines } = content;
  const layout = model ? effectiveLayout(model, preferred, size.width) : 'unified';
  const viewport = Math.max(1, size.bodyHeight - cardKind(request).chrome);
  if (!model) {
    const total = lines?.length ?? 0;
    const offset = Math.max(0, Math.min(scroll ?? 0, Math.max(0, total - viewport)));
    return { model, lines, layout, offset, view: { width: size.width, total, viewport, initial: 0 } };
  }
  const folded = foldDiff(model, layout, diff.unfolded === true);
  const total = folded.rows.length;
  const max = Math.max(0, total - viewport);
  // Opens with as many changes as fit (folded, the first is a few rows down); a jump shows its change.
  const initial =
    diff.change !== undefined
      ? changeOffset(folded.changes, diff.change, viewport)
      : diff.unfolded || (folded.changes[0] ?? 0) >= viewport
        ? changeOffset(folded.changes, 0, viewport)
        : 0;
  const offset = Math.max(0, Math.min(scroll ?? initial, max));
  const change = currentChange(folded.changes, offset, viewport, diff.change);
  const col = columnWidth(model, layout, size.width);
  const shiftMax = Math.max(0, widestLine(model, folded, layout, offset, offset + viewport) - col + 2);
  const shift = Math.min(diff.shift ?? 0, shiftMax);
  return {
    model,
    folded,
    change,
    shift,
    lines,
    layout,
    offset,
    view: {
      width: size.width,
      total,
      viewport,
      initial,
      diff: { changes: folded.changes, change, shiftMax, shiftStep: Math.max(4, Math.floor(col / 2)) },
    },
  };
}
