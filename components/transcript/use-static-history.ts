import { useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { TranscriptEntry } from '../../src/protocol';

/** Clear screen and scrollback, cursor home: the printed history is about to be replaced. */
const CLEAR_TERMINAL = '\u001B[2J\u001B[3J\u001B[H';
/** Resizes arrive in bursts while a window is dragged; re-print once it settles. */
const RESIZE_SETTLE_MS = 250;

/**
 * Keys <Static> so history printed once is printed again only when it must be: when the core
 * dropped or replaced entries already printed (/clear, /undo), or after the width changed (the
 * old lines were wrapped for another width), or when `reprintKey` changes. Returns the epoch to
 * use as the <Static> key.
 */
export function useStaticHistory(history: TranscriptEntry[], width: number, reprintKey = 0): number {
  const { write } = useStdout();
  const [epoch, setEpoch] = useState(0);
  const printed = useRef<{ count: number; firstId?: string; lastId?: string }>({ count: 0 });
  const lastWidth = useRef(width);
  const lastReprint = useRef(reprintKey);

  useEffect(() => {
    const before = printed.current;
    const n = before.count;
    const stillPrefix =
      history.length >= n &&
      (n === 0 || (history[0]?.id === before.firstId && history[n - 1]?.id === before.lastId));
    printed.current = {
      count: history.length,
      firstId: history[0]?.id,
      lastId: history[history.length - 1]?.id,
    };
    if (stillPrefix) return;
    write(CLEAR_TERMINAL);
    setEpoch((e) => e + 1);
  }, [history, write]);

  useEffect(() => {
    if (width === lastWidth.current) return;
    const timer = setTimeout(() => {
      lastWidth.current = width;
      write(CLEAR_TERMINAL);
      setEpoch((e) => e + 1);
    }, RESIZE_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [width, write]);

  // Asked for explicitly, e.g. after a full-screen view pushed the history out of sight.
  useEffect(() => {
    if (reprintKey === lastReprint.current) return;
    lastReprint.current = reprintKey;
    write(CLEAR_TERMINAL);
    setEpoch((e) => e + 1);
  }, [reprintKey, write]);

  return epoch;
}
