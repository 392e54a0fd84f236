import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** How long keys are ignored after the card under the cursor changed by itself. */
export const GRACE_MS = 400;

export type GraceWindow = {
  /** True while keys are being ignored (the drawer shows a brief "…"). */
  waiting: boolean;
  /** Whether a key may act now; a refused key re-shows the hint. */
  allow: () => boolean;
  /** Call before moving the cursor on purpose, so that move opens no window. */
  noteUserMove: () => void;
};

/**
 * Ignores keys for `ms` after `selectedId` changes by itself (the request was resolved, removed,
 * or the drawer just appeared), so a key meant for one card never lands on another. The decision
 * uses the injected clock, and ends early when the hint's timer fires, so keys act exactly when the
 * hint is gone.
 */
export function useGraceWindow(
  selectedId: string | undefined,
  now: () => number,
  ms: number = GRACE_MS,
): GraceWindow {
  const until = useRef(0);
  const previous = useRef<string | undefined>(undefined);
  const userMove = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [waiting, setWaiting] = useState(false);

  const showHint = useCallback((forMs: number) => {
    setWaiting(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      // What the person sees is what counts: once the hint is gone, keys act.
      until.current = 0;
      setWaiting(false);
    }, Math.max(0, forMs));
  }, []);

  // A layout effect runs at commit, before any later key event can be handled.
  useLayoutEffect(() => {
    if (selectedId === previous.current) return;
    previous.current = selectedId;
    const byUser = userMove.current;
    userMove.current = false;
    if (byUser || selectedId === undefined) return;
    until.current = now() + ms;
    showHint(ms);
  }, [selectedId, now, ms, showHint]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const allow = useCallback(() => {
    const left = until.current - now();
    if (left <= 0) {
      // The injected clock may run ahead of the hint's timer; a key that acts ends the hint.
      clearTimeout(timer.current);
      setWaiting(false);
      return true;
    }
    showHint(left);
    return false;
  }, [now, showHint]);

  const noteUserMove = useCallback(() => {
    userMove.current = true;
  }, []);

  return { waiting, allow, noteUserMove };
}
