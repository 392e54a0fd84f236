import { useMemo, useState } from 'react';
import type { ApprovalRequest } from '../../src/protocol';
import { argsPreviewLines, commandPreviewLines, type PreviewLine, planPreviewLines } from '../approval-lines';
import { buildDiffModel, type DiffLayout, type DiffModel, effectiveLayout, initialOffset, rowCount } from '../diff-rows';
import { type ApprovalScroll, useApprovalScroll } from './use-approval-scroll';

export type CardPreview = {
  model?: DiffModel;
  lines?: PreviewLine[];
  layout: DiffLayout;
  scroll: ApprovalScroll;
};

/** Rows a preview spends on headers and counts, by kind. */
const CHROME = { diff: 2, command: 2, json: 1, plan: 2, question: 0 } as const;

/**
 * The card's preview data and scroll position. The line diff runs once per request and argument
 * hash (an accepted edit changes the hash), however often the drawer re-renders.
 */
export function useCardPreview(
  request: ApprovalRequest,
  width: number,
  height: number,
  preferred: DiffLayout,
): CardPreview {
  const p = request.preview;
  // The id and argument hash identify the content; comparing 5 MB strings per render would not.
  const model = useMemo(
    () => (p.kind === 'diff' ? buildDiffModel(p.before, p.after, p.isNew) : undefined),
    [request.id, request.argsHash],
  );
  const lines = useMemo(() => {
    if (p.kind === 'command') return commandPreviewLines(p, width);
    if (p.kind === 'plan') return planPreviewLines(p, width);
    if (p.kind === 'json') return argsPreviewLines(request, width);
    return undefined;
  }, [p, request, width]);
  const layout = model ? effectiveLayout(model, preferred, width) : 'unified';
  const viewport = Math.max(1, height - CHROME[p.kind]);
  const total = model ? rowCount(model, layout) : (lines?.length ?? 0);
  const [initial] = useState(() => (model ? initialOffset(model, layout) : 0));
  const scroll = useApprovalScroll(total, viewport, initial);
  return { model, lines, layout, scroll };
}

/** The string argument holding the proposed file content, when there is one to open in $EDITOR. */
export function externalEditField(request: ApprovalRequest): string | undefined {
  const p = request.preview;
  const args = request.args;
  if (p.kind !== 'diff' || typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  return Object.entries(args).find(([, v]) => v === p.after)?.[0];
}
