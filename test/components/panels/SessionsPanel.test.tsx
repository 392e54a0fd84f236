import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { approvalDetailLines, compactDetailLines } from '../../../components/drawer/approval-details';
import { SessionsPanel } from '../../../components/panels/SessionsPanel';
import type { SessionSummary } from '../../../src/protocol';
import { FakeCore, makeRequest } from '../../helpers/fake-core';
import { KEY, press, waitForFrame, waitUntil } from '../../helpers/ink';

const NOW = new Date('2025-01-02T12:00:00.000Z');
const saved = (id: string, title: string, updatedAt: string, turns: number): SessionSummary => ({
  id,
  root: '/tmp/project',
  title,
  model: 'm',
  createdAt: updatedAt,
  updatedAt,
  turns,
});
const LIST = [
  saved('s-new', 'fix the parser', '2025-01-02T11:55:00.000Z', 3),
  saved('sess-test', 'this one', '2025-01-02T11:00:00.000Z', 1),
  saved('s-old', 'add a farewell function', '2024-12-30T12:00:00.000Z', 12),
];

function setup(sessions: SessionSummary[] = LIST) {
  const core = new FakeCore();
  core.onCommand = (c, fake) => {
    if (c.type === 'list_sessions') queueMicrotask(() => fake.emit({ type: 'sessions_listed', sessions }));
  };
  const onClose = vi.fn();
  const view = render(
    <SessionsPanel
      client={core}
      current="sess-test"
      isActive
      width={90}
      rows={20}
      onClose={onClose}
      now={() => NOW}
    />,
  );
  return { ...view, core, onClose };
}

describe('SessionsPanel (/resume, warden --resume)', () => {
  it('asks the core for the list and shows title, age and turns, this session marked', async () => {
    const { lastFrame, core } = setup();
    await waitForFrame(lastFrame, 'add a farewell function');
    expect(core.sentOf('list_sessions')).toHaveLength(1);
    const frame = lastFrame() ?? '';
    expect(frame).toMatch(/fix the parser · 5m ago · 3 turns/);
    expect(frame).toMatch(/this one · 1h ago · 1 turn · this session/);
    expect(frame).toMatch(/add a farewell function · 72h ago · 12 turns/);
  });

  it.each([
    [[], 's-new'],
    [[KEY.down, KEY.down], 's-old'],
  ])('keys %j then Enter resume %s', async (keys, id) => {
    const { lastFrame, stdin, core } = setup();
    await waitForFrame(lastFrame, 'add a farewell function');
    await press(stdin, ...keys, KEY.enter);
    await waitUntil(() => expect(core.sentOf('resume_session')).toEqual([{ type: 'resume_session', id }]));
  });

  it('Enter on this session sends nothing and says so; Esc closes', async () => {
    const { lastFrame, stdin, core, onClose } = setup();
    await waitForFrame(lastFrame, 'this one');
    await press(stdin, KEY.down, KEY.enter);
    await waitForFrame(lastFrame, 'That is this session.');
    expect(core.sentOf('resume_session')).toEqual([]);
    await press(stdin, KEY.escape);
    await waitUntil(() => expect(onClose).toHaveBeenCalled());
  });

  it('no saved sessions: says so', async () => {
    const { lastFrame, stdin, core } = setup([]);
    await waitForFrame(lastFrame, 'No saved sessions for this project yet.');
    await press(stdin, KEY.enter);
    expect(core.sentOf('resume_session')).toEqual([]);
  });
});

describe('a card from before the restart', () => {
  it.each([
    [{ requestId: 'r0' }, /was +from before the restart — checked again now$/m],
    [{ requestId: 'r0', fileChanged: true as const }, /the file changed since it was first asked/],
  ])('%j is marked on the card', (resumedFrom, text) => {
    const request = makeRequest({ resumedFrom });
    const lines = approvalDetailLines(request, 200, Date.parse('2025-01-02T10:01:00.000Z'));
    const shown = lines.map((l) => `${l.label.padEnd(6)} ${l.text}`).join('\n');
    expect(shown).toMatch(text);
    expect(compactDetailLines(request, 200).some((l) => l.label === 'was')).toBe(true);
  });

  it('a card that is not resumed has no such line', () => {
    expect(approvalDetailLines(makeRequest(), 200, Date.now()).some((l) => l.label === 'was')).toBe(false);
  });
});
