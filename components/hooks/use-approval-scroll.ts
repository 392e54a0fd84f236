import { useCallback, useState } from 'react';

export type ScrollMove = 'line-up' | 'line-down' | 'page-up' | 'page-down' | 'top' | 'bottom';

export type ApprovalScroll = { offset: number; move: (how: ScrollMove) => void };

/** A scroll offset kept inside [0, total - viewport]; pages keep one row of overlap. */
export function useApprovalScroll(total: number, viewport: number, initial = 0): ApprovalScroll {
  const [raw, setRaw] = useState(initial);
  const max = Math.max(0, total - Math.max(1, viewport));
  const clamp = useCallback((n: number) => Math.max(0, Math.min(n, max)), [max]);
  const move = useCallback(
    (how: ScrollMove) => {
      const page = Math.max(1, viewport - 1);
      setRaw((o) => {
        const from = clamp(o);
        if (how === 'line-up') return clamp(from - 1);
        if (how === 'line-down') return clamp(from + 1);
        if (how === 'page-up') return clamp(from - page);
        if (how === 'page-down') return clamp(from + page);
        return how === 'top' ? 0 : max;
      });
    },
    [clamp, max, viewport],
  );
  return { offset: clamp(raw), move };
}
