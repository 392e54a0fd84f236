import type { TranscriptEntry } from '../../src/protocol';

type ToolEntry = Extract<TranscriptEntry, { kind: 'tool' }>;

/** Lines of output a card shows when the transcript is not detailed. */
export const CARD_LINES = 5;

/** What a tool card shows under its header: some lines, and how many earlier ones it leaves out. */
export type CardLines = { lines: string[]; hidden: number; live: boolean };

/**
 * The lines under a tool card: while it runs, the tail of its live output; once finished, the last
 * CARD_LINES lines of its result (all of them when `detailed`), with the count of those left out.
 */
export function cardLines(entry: ToolEntry, detailed: boolean): CardLines {
  if (entry.status === 'running' || entry.status === 'waiting') {
    const tail = entry.tail;
    if (!tail || tail.lines.length === 0) return { lines: [], hidden: 0, live: true };
    return { lines: tail.lines, hidden: Math.max(0, tail.total - tail.lines.length), live: true };
  }
  const text = entry.output ?? entry.result ?? '';
  const all = text.replace(/\n+$/, '').split('\n');
  if (all.length === 1 && all[0] === '') return { lines: [], hidden: 0, live: false };
  if (detailed || all.length <= CARD_LINES) return { lines: all, hidden: 0, live: false };
  return { lines: all.slice(-CARD_LINES), hidden: all.length - CARD_LINES, live: false };
}

/** "+1 line", "+21 lines". */
export function moreLines(n: number): string {
  return `+${n} line${n === 1 ? '' : 's'}`;
}
