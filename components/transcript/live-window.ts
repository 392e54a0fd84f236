import { formatCount } from '../../src/text/count';
import { estimateItemRows, type HistoryItem } from './history-items';

/** What the live tail leaves out above its window: how many calls and entries, and how many of them still run or wait. */
export type HiddenLive = { count: number; running: number; waiting: number };

/**
 * The live items the tail renders: the newest whose estimated rows fit in `rows` (at least the
 * newest one), a row kept for the "+N more" line when some are left out. A burst of thousands of
 * parallel calls then costs a screenful of components per frame, not thousands (and a batch big
 * enough to be grouped is one item).
 */
export function liveWindow(
  live: readonly HistoryItem[],
  width: number,
  rows: number,
  detailed = false,
): { shown: readonly HistoryItem[]; hidden: HiddenLive } {
  let used = 0;
  let start = live.length;
  while (start > 0) {
    const next = estimateItemRows(live[start - 1] as HistoryItem, width, detailed);
    // Everything fits only if the last one does with no "+N more" row; otherwise keep one for it.
    const room = start === 1 ? rows : rows - 1;
    if (start < live.length && used + next > room) break;
    used += next;
    start -= 1;
  }
  const hidden: HiddenLive = { count: 0, running: 0, waiting: 0 };
  for (let i = 0; i < start; i++) {
    const item = live[i] as HistoryItem;
    for (const entry of item.kind === 'group' ? item.entries : [item.entry]) {
      hidden.count += 1;
      if (entry.kind !== 'tool') continue;
      if (entry.status === 'running') hidden.running += 1;
      else if (entry.status === 'waiting') hidden.waiting += 1;
    }
  }
  return { shown: start === 0 ? live : live.slice(start), hidden };
}

/** The line standing for the live entries above the window, e.g. "+4,990 more · 4,980 running · 10 waiting". */
export function hiddenLiveLine(hidden: HiddenLive): string {
  const n = formatCount;
  const parts = [`+${n(hidden.count)} more`];
  if (hidden.running) parts.push(`${n(hidden.running)} running`);
  if (hidden.waiting) parts.push(`${n(hidden.waiting)} waiting`);
  return parts.join(' · ');
}
