import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { ApprovalRequest } from '../../src/protocol';

export type ApprovalCursor = {
  selected: ApprovalRequest | undefined;
  index: number;
  /** Moves by `delta` within the queue; returns the id moved to, or undefined at either end. */
  step: (delta: 1 | -1) => string | undefined;
  select: (id: string) => void;
};

/**
 * The queue cursor, tracked by request id so a shifting list never moves it. When its request
 * leaves the queue the cursor falls on the request now at the same position (clamped).
 */
export function useApprovalCursor(pending: ApprovalRequest[]): ApprovalCursor {
  const [cursorId, setCursorId] = useState<string | undefined>(undefined);
  const lastIndex = useRef(0);
  let index = pending.findIndex((r) => r.id === cursorId);
  if (index < 0) index = Math.max(0, Math.min(lastIndex.current, pending.length - 1));
  const selected = pending[index];
  useLayoutEffect(() => {
    lastIndex.current = index;
    if (selected && selected.id !== cursorId) setCursorId(selected.id);
  });
  const step = useCallback(
    (delta: 1 | -1) => {
      const target = pending[index + delta];
      if (target) setCursorId(target.id);
      return target?.id;
    },
    [pending, index],
  );
  return { selected, index, step, select: setCursorId };
}
