/** The /compact card (issue 15 §4): the summary is read before it replaces the conversation. */
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { CompactCard } from '../../../components/panels/CompactCard';
import type { CompactProposal } from '../../../src/protocol';
import { FakeCore } from '../../helpers/fake-core';
import { KEY, press, stripAnsi, waitForFrame, waitUntil } from '../../helpers/ink';
import { renderApp } from '../app-harness';

afterEach(() => cleanup());

const SHORT: CompactProposal = {
  id: 'c1',
  summary: 'The person asked to fix the parser.\nsrc/parse.ts was changed; tests pass.',
  before: 42_310,
  after: 1_204,
  offered: false,
};
const LONG: CompactProposal = {
  ...SHORT,
  id: 'c2',
  summary: Array.from({ length: 40 }, (_, i) => `note ${i + 1}`).join('\n'),
};

describe('CompactCard', () => {
  it.each([
    ['y', true],
    ['n', false],
    [KEY.escape, false],
  ] as const)('shows the summary and the figures; %j answers accept=%s', async (key, accept) => {
    const core = new FakeCore();
    const view = render(<CompactCard client={core} proposal={SHORT} width={100} maxRows={20} isActive />);
    const f = await waitForFrame(view.lastFrame, 'Compact the conversation?');
    expect(f).toContain('42,310 → 1,204 tokens');
    expect(f).toContain('The person asked to fix the parser.');
    expect(f).toContain('src/parse.ts was changed; tests pass.');
    await press(view.stdin, key);
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'accept_compact', id: 'c1', accept }]));
  });

  it('a long summary scrolls within its rows', async () => {
    const core = new FakeCore();
    const view = render(<CompactCard client={core} proposal={LONG} width={100} maxRows={12} isActive />);
    let f = await waitForFrame(view.lastFrame, 'lines 1–6 of 40');
    expect(f).toMatch(/note 1\s/);
    expect(f).not.toContain('note 7');
    await press(view.stdin, KEY.down, KEY.down, 'j');
    f = await waitForFrame(view.lastFrame, 'lines 4–9 of 40');
    expect(f).toContain('note 9');
    expect(f).not.toMatch(/note 3\s/);
    expect(core.sent).toEqual([]);
  });

  it('offered before the window overflows, it says so', async () => {
    const core = new FakeCore();
    const view = render(
      <CompactCard client={core} proposal={{ ...SHORT, offered: true }} width={120} maxRows={20} isActive />,
    );
    const f = await waitForFrame(view.lastFrame, 'The context is nearly full');
    expect(f).toContain('n goes on as before');
  });

  it('the app shows it from the snapshot and the prompt does not take the keys', async () => {
    const core = new FakeCore({ compact: SHORT });
    const view = await renderApp(core, { columns: 120, rows: 30 });
    await waitForFrame(view.lastFrame, 'Compact the conversation?');
    await press(view.stdin, 'y');
    await waitUntil(() =>
      expect(core.sentOf('accept_compact')).toEqual([{ type: 'accept_compact', id: 'c1', accept: true }]),
    );
    expect(core.sentOf('submit')).toEqual([]);
    expect(stripAnsi(view.lastFrame() ?? '')).toContain('42,310');
  });
});
