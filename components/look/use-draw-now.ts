import { useLayoutEffect } from 'react';

/**
 * Draws the frame that shows something new at once, rather than at the end of Ink's 33 ms frame
 * window: the bundle's Ink exposes `__wardenDrawNow` (scripts/esbuild-options.mjs, inkDrawNow). Runs
 * when `key` changes (a new approval card, an edit in a text field); a no-op where Ink is not the
 * bundled one (tests).
 */
export function useDrawNow(key: string): void {
  useLayoutEffect(() => {
    (globalThis as { __wardenDrawNow?: () => void }).__wardenDrawNow?.();
  }, [key]);
}
