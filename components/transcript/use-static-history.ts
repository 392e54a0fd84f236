import { useStdout } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { TranscriptEntry } from '../../src/protocol';
import { estimateItemRows, type HistoryItem } from './history-items';
import { estimateRows } from './transcript-split';

/** Clear screen and scrollback, cursor home: the printed history is about to be replaced. */
const CLEAR_TERMINAL = '\u001B[2J\u001B[3J\u001B[H';
/** Clear the screen only, cursor home: what scrolled off stays in the terminal's scrollback. */
const CLEAR_SCREEN = '\u001B[2J\u001B[H';
/** Resizes arrive in bursts while a window is dragged; re-print once it settles. */
const RESIZE_SETTLE_MS = 250;
/** A resize reprints this many screens of history; older lines are already in the scrollback. */
const RESIZE_SCREENS = 2;

/** What <Static> prints: from `start` in the printed items, under `epoch` as its key. */
export type StaticHistory = { epoch: number; start: number };

/**
 * Where a reprint of `history` starts so it fills at least `rows` rows (estimated at `width`):
 * the newest entries that a screen or two can show. 0 when the whole history fits.
 */
export function reprintStart(
  history: readonly TranscriptEntry[],
  width: number,
  rows: number,
  detailed = false,
): number {
  return startFilling(
    history.length,
    (i) => estimateRows(history[i] as TranscriptEntry, width, detailed),
    rows,
  );
}

/** `reprintStart` over the printed items (an entry, or a group of calls printed as one block). */
export function reprintItemsStart(
  items: readonly HistoryItem[],
  width: number,
  rows: number,
  detailed = false,
): number {
  return startFilling(items.length, (i) => estimateItemRows(items[i] as HistoryItem, width, detailed), rows);
}

function startFilling(count: number, rowsOf: (i: number) => number, rows: number): number {
  let used = 0;
  for (let i = count - 1; i >= 0; i--) {
    used += rowsOf(i);
    if (used >= rows) return i;
  }
  return 0;
}

/**
 * Keys <Static> so history printed once is printed again only when it must be: when the core
 * dropped or replaced entries already printed (/clear, /undo), or after the width changed (the
 * old lines were wrapped for another width), or when `reprintKey` changes (Ctrl+O, after a
 * full-screen view). A resize reprints only the newest two screens (as Gemini CLI and Claude Code
 * do: a 5,000-entry history would take seconds), leaving the scrollback in place; the other
 * reprints clear the scrollback and print the whole history, so nothing above is stale.
 */
export function useStaticHistory(
  history: TranscriptEntry[],
  items: readonly HistoryItem[],
  width: number,
  reprintKey = 0,
  detailed = false,
): StaticHistory {
  const { write, stdout } = useStdout();
  const [view, setView] = useState<StaticHistory>({ epoch: 0, start: 0 });
  const printed = useRef<{ count: number; firstId?: string; lastId?: string }>({ count: 0 });
  const lastWidth = useRef(width);
  const lastReprint = useRef(reprintKey);
  const latest = useRef({ items, detailed });
  latest.current = { items, detailed };

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
    setView((v) => ({ epoch: v.epoch + 1, start: 0 }));
  }, [history, write]);

  useEffect(() => {
    if (width === lastWidth.current) return;
    const timer = setTimeout(() => {
      lastWidth.current = width;
      const { items: now, detailed: full } = latest.current;
      const start = reprintItemsStart(now, width, RESIZE_SCREENS * (stdout.rows || 24), full);
      write(CLEAR_SCREEN);
      setView((v) => ({ epoch: v.epoch + 1, start }));
    }, RESIZE_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [width, write, stdout]);

  // Asked for explicitly, e.g. after a full-screen view pushed the history out of sight.
  useEffect(() => {
    if (reprintKey === lastReprint.current) return;
    lastReprint.current = reprintKey;
    write(CLEAR_TERMINAL);
    setView((v) => ({ epoch: v.epoch + 1, start: 0 }));
  }, [reprintKey, write]);

  return view;
}
