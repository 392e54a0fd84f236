import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { LiveTail } from '../../../components/transcript/LiveTail';
import { type HistoryItem, historyItems } from '../../../components/transcript/history-items';
import { hiddenLiveLine, liveWindow } from '../../../components/transcript/live-window';
import type { ToolCardStatus, TranscriptEntry } from '../../../src/protocol';
import { waitForFrame } from '../../helpers/ink';

const call = (i: number, status: ToolCardStatus = 'running'): TranscriptEntry => ({
  kind: 'tool',
  id: `t${i}`,
  agentId: 'main',
  tool: 'read_file',
  summary: `src/file${i}.ts`,
  status,
});

/** The entries the window's items stand for (none of these calls is in a grouped batch). */
const entriesOf = (items: readonly HistoryItem[]) =>
  items.flatMap((item) => (item.kind === 'group' ? item.entries : [item.entry]));

/** `n` calls, every tenth waiting for approval, the rest running. */
const burst = (n: number) =>
  Array.from({ length: n }, (_, i) => call(i, i % 10 === 0 ? 'waiting' : 'running'));

describe('liveWindow (issue 16: a burst of parallel calls)', () => {
  it.each([
    { n: 0, rows: 10, shown: 0, hidden: 0 },
    { n: 5, rows: 10, shown: 5, hidden: 0 },
    { n: 10, rows: 10, shown: 10, hidden: 0 },
    // One row more than fits: a row goes to "+N more".
    { n: 11, rows: 10, shown: 9, hidden: 2 },
    { n: 5_000, rows: 36, shown: 35, hidden: 4_965 },
    // Too little room: the newest entry is still rendered (and clipped).
    { n: 3, rows: 0, shown: 1, hidden: 2 },
  ])('$n one-row calls in $rows rows → $shown shown, $hidden counted', ({ n, rows, shown, hidden }) => {
    const live = burst(n);
    const w = liveWindow(historyItems(live), 100, rows);
    expect(w.shown.length).toBe(shown);
    expect(w.hidden.count).toBe(hidden);
    expect(entriesOf(w.shown).at(-1)).toBe(live.at(-1));
    expect(w.hidden.running + w.hidden.waiting).toBe(hidden);
  });

  it('counts what is left out by status', () => {
    const w = liveWindow(historyItems(burst(100)), 100, 11);
    expect(w.hidden).toEqual({ count: 90, running: 81, waiting: 9 });
    expect(hiddenLiveLine(w.hidden)).toBe('+90 more · 81 running · 9 waiting');
    expect(hiddenLiveLine({ count: 1_234, running: 0, waiting: 0 })).toBe('+1,234 more');
  });

  it('keeps a finished entry inside the window (order kept)', () => {
    const live = [call(0), call(1, 'executed'), call(2)];
    expect(entriesOf(liveWindow(historyItems(live), 100, 10).shown)).toEqual(live);
  });
});

describe('LiveTail with 5,000 unfinished calls', () => {
  it('renders the newest that fit and one line counting the rest, not every entry', async () => {
    const live = burst(5_000);
    const { lastFrame } = render(
      <LiveTail
        live={live}
        subAgents={[]}
        labels={new Map()}
        width={100}
        rows={12}
        agentsExpanded={false}
        showAgents={false}
      />,
    );
    const frame = await waitForFrame(lastFrame, 'src/file4999.ts');
    expect(frame).toContain('+4,989 more · 4,490 running · 499 waiting');
    expect(frame).toContain('src/file4989.ts');
    expect(frame).not.toContain('src/file4988.ts');
    expect(frame.split('\n').length).toBeLessThanOrEqual(12);
  });
});
