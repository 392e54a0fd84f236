import type { ToolCardStatus, TranscriptEntry } from '../../src/protocol';
import { estimateRows, groupedBatch } from './transcript-split';

type ToolEntry = Extract<TranscriptEntry, { kind: 'tool' }>;

/** Calls a group lists under its header (failures first), before "+N more". */
export const GROUP_SHOWN = 3;

/** What the printed history holds: an entry, or a run of calls of one batch shown as one block. */
export type HistoryItem =
  | { kind: 'entry'; id: string; entry: TranscriptEntry }
  | { kind: 'group'; id: string; entries: ToolEntry[] };

/**
 * The printed history's items: each run of two or more consecutive calls of one grouped batch
 * becomes one group (unless `detailed`: Ctrl+O shows every card). A run ends at any other entry,
 * so the items of a longer history always begin with those of a shorter one.
 */
export function historyItems(history: readonly TranscriptEntry[], detailed = false): HistoryItem[] {
  const items: HistoryItem[] = [];
  let i = 0;
  while (i < history.length) {
    const entry = history[i] as TranscriptEntry;
    const batch = detailed ? undefined : groupedBatch(entry);
    let end = i + 1;
    if (batch) while (end < history.length && groupedBatch(history[end] as TranscriptEntry) === batch) end++;
    if (end - i >= 2) {
      items.push({ kind: 'group', id: `group-${entry.id}`, entries: history.slice(i, end) as ToolEntry[] });
    } else items.push({ kind: 'entry', id: entry.id, entry });
    i = end;
  }
  return items;
}

/** A group's header counts: how many calls of each tool, and how many ended each way. */
export function groupCounts(entries: readonly ToolEntry[]): {
  tools: [string, number][];
  statuses: [ToolCardStatus, number][];
} {
  const tools = new Map<string, number>();
  const statuses = new Map<ToolCardStatus, number>();
  for (const e of entries) {
    tools.set(e.tool, (tools.get(e.tool) ?? 0) + 1);
    statuses.set(e.status, (statuses.get(e.status) ?? 0) + 1);
  }
  return { tools: [...tools], statuses: [...statuses] };
}

/** The calls a group lists: the last GROUP_SHOWN, the ones that did not execute first, in order. */
export function groupShown(entries: readonly ToolEntry[]): ToolEntry[] {
  const picked = new Set<number>();
  for (let i = entries.length - 1; i >= 0 && picked.size < GROUP_SHOWN; i--)
    if ((entries[i] as ToolEntry).status !== 'executed') picked.add(i);
  for (let i = entries.length - 1; i >= 0 && picked.size < GROUP_SHOWN; i--) picked.add(i);
  return [...picked].sort((a, b) => a - b).map((i) => entries[i] as ToolEntry);
}

/** Rows an item takes at `width` (estimated, like `estimateRows`). */
export function estimateItemRows(item: HistoryItem, width: number, detailed = false): number {
  if (item.kind === 'entry') return estimateRows(item.entry, width, detailed);
  const shown = Math.min(GROUP_SHOWN, item.entries.length);
  return 1 + shown + (item.entries.length > shown ? 1 : 0);
}
