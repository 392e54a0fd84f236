import type { AgentInfo, TranscriptEntry } from '../../src/protocol';
import { cardLines } from './tool-lines';
import { isFinalStatus } from './tool-status';

/** An entry that will not change again (and so may be printed once, into <Static>). */
export function isFinished(entry: TranscriptEntry): boolean {
  if (entry.kind === 'assistant') return !entry.streaming;
  if (entry.kind === 'tool') return isFinalStatus(entry.status);
  return true;
}

/** A batch of at least this many calls side by side is printed as one group, not a card each. */
export const GROUP_MIN = 8;

/** The batch an entry belongs to when its batch is big enough to be printed as a group. */
export function groupedBatch(entry: TranscriptEntry): string | undefined {
  return entry.kind === 'tool' && entry.batch && entry.batch.size >= GROUP_MIN ? entry.batch.id : undefined;
}

/**
 * Where the printed history must stop so that a group is printed whole: at the start of the run
 * of a grouped batch that ends the finished entries (`end` of them) while it has fewer calls than
 * its batch (the rest are still coming). `end` when nothing is held back.
 */
export function holdBackRun(transcript: readonly TranscriptEntry[], end: number): number {
  const last = transcript[end - 1];
  const batch = last ? groupedBatch(last) : undefined;
  if (!batch || last?.kind !== 'tool') return end;
  let start = end - 1;
  while (start > 0 && groupedBatch(transcript[start - 1] as TranscriptEntry) === batch) start -= 1;
  return end - start >= (last.batch?.size ?? 0) ? end : start;
}

/**
 * Splits the transcript at the first unfinished entry: everything before it is history, the
 * rest is the live tail. Order is kept, so history never has to be re-printed to insert into it.
 * The calls of a grouped batch stay in the live tail until the whole batch is finished, so the
 * history prints them as one group (history-items.ts).
 */
export function splitTranscript(transcript: TranscriptEntry[]): {
  history: TranscriptEntry[];
  live: TranscriptEntry[];
} {
  const unfinished = transcript.findIndex((e) => !isFinished(e));
  const cut = holdBackRun(transcript, unfinished === -1 ? transcript.length : unfinished);
  if (cut === transcript.length) return { history: transcript, live: [] };
  return { history: transcript.slice(0, cut), live: transcript.slice(cut) };
}

/** Whether two lists hold the same entries (by identity), in the same order. */
export function sameEntries(a: readonly TranscriptEntry[], b: readonly TranscriptEntry[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = a.length - 1; i >= 0; i--) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The sub-agents the group shows: those of the person's latest prompt (`prompt`), not every one the
 * session ever started. A core that does not number prompts gets them all.
 */
export function promptSubAgents(agents: AgentInfo[], prompt: number | undefined): AgentInfo[] {
  return agents.filter(
    (a) =>
      a.parentId !== undefined && (prompt === undefined || a.prompt === undefined || a.prompt === prompt),
  );
}

/** agentId → name for sub-agents only; the main agent's entries carry no label. */
export function subAgentLabels(agents: AgentInfo[]): Map<string, string> {
  return new Map(agents.filter((a) => a.parentId !== undefined).map((a) => [a.id, a.name]));
}

const wrapped = (text: string, width: number): number =>
  text.split('\n').reduce((rows, line) => rows + Math.max(1, Math.ceil(line.length / Math.max(1, width))), 0);

/**
 * A cheap upper-ish estimate of the rows an entry takes at `width`. Used only to decide whether
 * the live tail needs clipping; being off by a row or two costs a row of slack, not correctness.
 */
export function estimateRows(entry: TranscriptEntry, width: number, detailed = false): number {
  switch (entry.kind) {
    case 'user':
      return 1 + wrapped(entry.text, width - 2);
    case 'assistant': {
      const fences = (entry.text.match(/^\s*(```|~~~)/gm) ?? []).length;
      return 1 + wrapped(entry.text, width - 6) + fences * 2;
    }
    case 'tool': {
      const body = cardLines(entry, detailed);
      const rows = detailed
        ? body.lines.reduce((n, line) => n + wrapped(line, width - 5), 0)
        : body.lines.length;
      return 1 + rows + (body.hidden > 0 ? 1 : 0);
    }
    case 'notice':
      return wrapped(entry.text, width - 4);
    case 'banner':
      return 5;
  }
}
