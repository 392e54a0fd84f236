import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ConversationPane } from '../../../components/transcript/ConversationPane';
import {
  GROUP_SHOWN,
  groupCounts,
  groupShown,
  historyItems,
} from '../../../components/transcript/history-items';
import { GROUP_MIN, holdBackRun, splitTranscript } from '../../../components/transcript/transcript-split';
import type { ToolCardStatus, TranscriptEntry } from '../../../src/protocol';
import { stripAnsi, waitForFrame } from '../../helpers/ink';

type ToolEntry = Extract<TranscriptEntry, { kind: 'tool' }>;

const call = (i: number, status: ToolCardStatus, batch?: { id: string; size: number }): ToolEntry => ({
  kind: 'tool',
  id: `t${i}`,
  agentId: 'main',
  tool: 'read_file',
  summary: `src/f${i}.ts`,
  status,
  ...(status === 'blocked' ? { result: `path-fence: src/f${i}.ts is outside` } : {}),
  ...(batch ? { batch } : {}),
});

/** `n` calls of one batch of `size` (default `n`), with the given statuses by index. */
const batchOf = (n: number, status: (i: number) => ToolCardStatus = () => 'executed', size = n) => {
  const batch = { id: 'b1', size };
  return Array.from({ length: n }, (_, i) => call(i, status(i), batch));
};
const user: TranscriptEntry = { kind: 'user', id: 'u1', text: 'read everything' };
const answer: TranscriptEntry = {
  kind: 'assistant',
  id: 'a1',
  agentId: 'main',
  text: 'read them all',
  streaming: false,
};

describe('history items: a batch of parallel calls is one group', () => {
  it('groups a run of a batch of GROUP_MIN or more; smaller batches keep a card each', () => {
    const big = historyItems([user, ...batchOf(GROUP_MIN), answer]);
    expect(big.map((i) => i.kind)).toEqual(['entry', 'group', 'entry']);
    const group = big[1];
    expect(group?.kind === 'group' && group.entries).toHaveLength(GROUP_MIN);
    const small = historyItems([user, ...batchOf(GROUP_MIN - 1), answer]);
    expect(small.every((i) => i.kind === 'entry')).toBe(true);
    expect(small).toHaveLength(GROUP_MIN + 1);
    // Calls without a batch (each ran alone) are never grouped.
    expect(historyItems([call(1, 'executed'), call(2, 'executed')]).map((i) => i.kind)).toEqual([
      'entry',
      'entry',
    ]);
  });

  it('Ctrl+O (detailed) shows every card', () => {
    const items = historyItems(batchOf(20), true);
    expect(items).toHaveLength(20);
    expect(items.every((i) => i.kind === 'entry')).toBe(true);
  });

  it('the items of a longer history begin with those of a shorter one (printed once, never re-grouped)', () => {
    const calls = batchOf(12);
    const short = historyItems([user, ...calls]);
    const long = historyItems([user, ...calls, answer, { kind: 'user', id: 'u2', text: 'more' }]);
    expect(long.slice(0, short.length).map((i) => i.id)).toEqual(short.map((i) => i.id));
    expect(long[1]).toEqual(short[1]);
  });

  it('counts tools and outcomes, and lists failures first among the last few', () => {
    const entries = batchOf(50, (i) => (i === 3 || i === 40 ? 'blocked' : 'executed'));
    expect(groupCounts(entries)).toEqual({
      tools: [['read_file', 50]],
      statuses: [
        ['executed', 48],
        ['blocked', 2],
      ],
    });
    expect(groupShown(entries).map((e) => e.id)).toEqual(['t3', 't40', 't49']);
    expect(groupShown(batchOf(50)).map((e) => e.id)).toEqual(['t47', 't48', 't49']);
    expect(groupShown(batchOf(50))).toHaveLength(GROUP_SHOWN);
  });
});

describe('splitTranscript holds a grouped batch back until all of it is finished', () => {
  it.each([
    { what: 'some still running', finished: 30, total: 40, size: 40, history: 1 },
    { what: 'not all started yet', finished: 30, total: 30, size: 40, history: 1 },
    { what: 'all finished', finished: 40, total: 40, size: 40, history: 41 },
  ])('$what → $history entries in history', ({ finished, total, size, history }) => {
    const transcript = [user, ...batchOf(total, (i) => (i < finished ? 'executed' : 'running'), size)];
    const split = splitTranscript(transcript);
    expect(split.history).toHaveLength(history);
    expect(split.history.length + split.live.length).toBe(transcript.length);
  });

  it('a batch too small to group is printed card by card as before', () => {
    const transcript = [user, ...batchOf(4, (i) => (i < 2 ? 'executed' : 'running'), GROUP_MIN - 1)];
    expect(splitTranscript(transcript).history).toHaveLength(3);
    expect(holdBackRun(transcript, 3)).toBe(3);
  });
});

describe('a burst of 5,000 calls on screen', () => {
  const pane = (transcript: TranscriptEntry[], detailed = false) =>
    render(
      <ConversationPane
        transcript={transcript}
        agents={[]}
        width={100}
        liveWidth={100}
        liveRows={20}
        agentsExpanded={false}
        showAgents={false}
        detailed={detailed}
      />,
    );

  it('prints one block into the scrollback: counts, the failures, "+N more", not 5,000 cards', async () => {
    const calls = batchOf(5_000, (i) => (i === 17 || i === 4_000 ? 'blocked' : 'executed'));
    const { lastFrame } = pane([user, ...calls, answer]);
    const frame = stripAnsi(await waitForFrame(lastFrame, 'read them all'));
    expect(frame).toContain('read_file × 5,000 · 4,998 executed · 2 blocked');
    expect(frame).toContain('read_file src/f17.ts — path-fence: src/f17.ts is outside · blocked');
    expect(frame).toContain('read_file src/f4000.ts');
    expect(frame).toContain('read_file src/f4999.ts · executed');
    expect(frame).toContain('+4,997 more · Ctrl+O shows every call');
    expect(frame).not.toContain('src/f4998.ts');
    expect(frame.split('\n').length).toBeLessThan(15);
  });

  it('while it runs, the live tail shows the same block with its counts moving', async () => {
    const calls = batchOf(1_300, (i) => (i < 1_236 ? 'executed' : 'running'), 5_000);
    const { lastFrame } = pane([user, ...calls]);
    const frame = stripAnsi(await waitForFrame(lastFrame, 'of 5,000'));
    expect(frame).toContain('read_file × 1,300 of 5,000 · 1,236 executed · 64 running');
    expect(frame.split('\n').length).toBeLessThanOrEqual(20);
  });

  it('Ctrl+O (detailed) prints every call of the batch', async () => {
    const { lastFrame } = pane([user, ...batchOf(GROUP_MIN + 2), answer], true);
    const frame = stripAnsi(await waitForFrame(lastFrame, 'read them all'));
    for (let i = 0; i < GROUP_MIN + 2; i++) expect(frame).toContain(`read_file src/f${i}.ts`);
    expect(frame).not.toContain('more · Ctrl+O');
  });
});
