import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ConversationPane } from '../../../components/transcript/ConversationPane';
import { reprintStart } from '../../../components/transcript/use-static-history';
import type { TranscriptEntry } from '../../../src/protocol';
import { makeTranscript } from '../../helpers/fake-core';
import { stripAnsi, waitForFrame, waitUntil } from '../../helpers/ink';

type PaneProps = Parameters<typeof ConversationPane>[0];

function pane(transcript: TranscriptEntry[], props: Partial<PaneProps> = {}) {
  const all: PaneProps = {
    transcript,
    agents: [],
    width: 100,
    liveWidth: 100,
    liveRows: 10,
    agentsExpanded: false,
    showAgents: false,
    ...props,
  };
  const view = render(<ConversationPane {...all} />);
  return {
    ...view,
    rerenderWith: (next: Partial<PaneProps>) => view.rerender(<ConversationPane {...all} {...next} />),
  };
}

/** How often `text` occurs as a whole line in the frame (ink-testing-library keeps all static output). */
const count = (frame: string, text: string) =>
  stripAnsi(frame)
    .split('\n')
    .filter((line) => line.trim().replace(/^› /, '') === text).length;

describe('reprintStart', () => {
  const history = makeTranscript(100); // each entry: 2 rows (a gap line and its text)
  it.each([
    { rows: 0, start: 99 },
    { rows: 10, start: 95 },
    { rows: 48, start: 76 },
    { rows: 1_000, start: 0 },
  ])('fills $rows rows from the newest entry back → starts at $start', ({ rows, start }) => {
    expect(reprintStart(history, 100, rows)).toBe(start);
  });
  it('an empty history starts at 0', () => {
    expect(reprintStart([], 100, 48)).toBe(0);
  });
});

describe('history reprints (issue 16: resize with a long transcript)', () => {
  it('a resize reprints only the newest two screens, and what arrives later is printed once', async () => {
    const history = makeTranscript(500);
    const { lastFrame, frames, rerenderWith } = pane(history);
    await waitForFrame(lastFrame, 'answer 499');
    expect(count(lastFrame() ?? '', 'question 0')).toBe(1);
    rerenderWith({ width: 70, liveWidth: 70 });
    await waitUntil(() => expect(frames.some((f) => f.includes('\u001B[2J\u001B[H'))).toBe(true));
    await waitUntil(() => expect(count(lastFrame() ?? '', 'answer 499')).toBe(2));
    const frame = lastFrame() ?? '';
    // The scrollback is kept (no \e[3J): the first entries were not printed again…
    expect(frames.some((f) => f.includes('\u001B[3J'))).toBe(false);
    expect(count(frame, 'question 0')).toBe(1);
    // …while two 24-row screens of the newest were: entries 476–499 (2 rows each).
    expect(count(frame, 'question 476')).toBe(2);
    expect(count(frame, 'answer 475')).toBe(1);
    const more: TranscriptEntry = { kind: 'user', id: 'later', text: 'after the resize' };
    rerenderWith({ width: 70, liveWidth: 70, transcript: [...history, more] });
    await waitUntil(() => expect(count(lastFrame() ?? '', 'after the resize')).toBe(1));
  });

  it('Ctrl+O (reprintKey with detailed) clears the scrollback and prints the whole history, even after a resize', async () => {
    const history = makeTranscript(300);
    const { lastFrame, frames, rerenderWith } = pane(history);
    await waitForFrame(lastFrame, 'answer 299');
    rerenderWith({ width: 70, liveWidth: 70 });
    await waitUntil(() => expect(count(lastFrame() ?? '', 'answer 299')).toBe(2));
    rerenderWith({ width: 70, liveWidth: 70, detailed: true, reprintKey: 1 });
    await waitUntil(() => expect(frames.some((f) => f.includes('\u001B[3J'))).toBe(true));
    await waitUntil(() => expect(count(lastFrame() ?? '', 'question 0')).toBe(2));
    expect(count(lastFrame() ?? '', 'answer 299')).toBe(3);
  });
});
