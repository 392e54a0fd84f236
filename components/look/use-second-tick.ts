import { useEffect, useState } from 'react';

/** How often clocks on screen (elapsed times, ages) move on. */
export const TICK_MS = 1000;

const listeners = new Set<(now: number) => void>();
let timer: ReturnType<typeof setInterval> | undefined;

/**
 * Calls `listener` every TICK_MS on one timer shared by every ticking clock on screen, so they all
 * move in the same turn of the event loop — one frame a second — instead of each clock's own timer
 * drawing a full frame of its own. Returns the unsubscribe; the timer stops with its last listener.
 */
export function onSecond(listener: (now: number) => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    const now = Date.now();
    for (const l of [...listeners]) l(now);
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The time now, re-read on the shared second tick (see `onSecond`). */
export function useSecondTick(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => onSecond(setNow), []);
  return now;
}
