import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ConversationPane } from '../../../components/transcript/ConversationPane';
import { ToolCard } from '../../../components/transcript/ToolCard';
import type { AgentInfo, TranscriptEntry } from '../../../src/protocol';
import { FakeCore } from '../../helpers/fake-core';
import { KEY, waitForFrame } from '../../helpers/ink';
import { renderApp } from '../app-harness';

type ToolEntry = Extract<TranscriptEntry, { kind: 'tool' }>;

const lines = (n: number, word = 'line') => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`);
const card = (patch: Partial<ToolEntry> = {}): ToolEntry => ({
  kind: 'tool',
  id: 't1',
  agentId: 'main',
  tool: 'execute_command',
  summary: 'npm test',
  status: 'executed',
  ...patch,
});
const show = (entry: ToolEntry, detailed = false) =>
  render(<ToolCard entry={entry} width={80} detailed={detailed} />);

describe('ToolCard output', () => {
  it('a finished card shows the last 5 lines of its output with "+N lines" above them', async () => {
    const output = [...lines(25, 'progress'), 'FAILED: 3 tests'].join('\n');
    const { lastFrame } = show(card({ output, result: 'progress 1' }));
    const frame = await waitForFrame(lastFrame, 'FAILED: 3 tests');
    expect(frame).toContain('+21 lines');
    for (const l of ['progress 22', 'progress 25']) expect(frame).toContain(l);
    expect(frame).not.toContain('progress 21');
    expect(frame).not.toMatch(/progress 1\b/);
  });

  it.each([
    ['one line', 'Wrote 3 lines to a.txt', ['Wrote 3 lines to a.txt'], undefined],
    ['exactly five lines', lines(5).join('\n'), ['line 1', 'line 5'], undefined],
    ['six lines', lines(6).join('\n'), ['line 2', 'line 6'], '+1 line'],
    ['a trailing newline is not a line', `${lines(5).join('\n')}\n`, ['line 1', 'line 5'], undefined],
  ])('%s', async (_name, output, shown, more) => {
    const { lastFrame } = show(card({ output }));
    const frame = await waitForFrame(lastFrame, shown.at(-1) as string);
    for (const l of shown) expect(frame).toContain(l);
    if (more) expect(frame).toContain(more);
    else expect(frame).not.toMatch(/\+\d+ lines?/);
  });

  it('detailed: the whole output, every line, long lines wrapped rather than cut', async () => {
    const long = `${'x'.repeat(100)}END`;
    const output = [...lines(25), long].join('\n');
    const { lastFrame } = show(card({ output }), true);
    const frame = await waitForFrame(lastFrame, 'END');
    for (const l of lines(25)) expect(frame).toMatch(new RegExp(`${l}\\b`));
    expect(frame).not.toContain('+21 lines');
  });

  it('a running command shows its live tail (last lines, "+N lines") and the elapsed time, ticking', async () => {
    const entry = card({
      status: 'running',
      startedAt: Date.now() - 3_000,
      tail: { lines: lines(5, 'out').slice(-5), total: 12 },
    });
    const { lastFrame } = show(entry);
    const frame = await waitForFrame(lastFrame, 'out 5');
    expect(frame).toMatch(/running 3s/);
    expect(frame).toContain('+7 lines');
    expect(frame).toContain('│ out 1');
    await waitForFrame(lastFrame, /running 4s/, 3000);
  });

  it('a running command with no output yet shows no lines, only its time', async () => {
    const { lastFrame } = show(card({ status: 'running', startedAt: Date.now() }));
    const frame = await waitForFrame(lastFrame, 'running 0s');
    expect(frame.trim().split('\n')).toHaveLength(1);
  });

  it('a command the person stopped says "stopped", not "error"', async () => {
    const { lastFrame } = show(
      card({ status: 'cancelled', output: 'started\n[cancelled; the process group was killed · 1.2 s]' }),
    );
    const frame = await waitForFrame(lastFrame, 'stopped');
    expect(frame).not.toContain('error');
    expect(frame).toContain('started');
  });

  it('shows the plan step its agent is on', async () => {
    const { lastFrame } = show(card({ step: { index: 2, total: 3, title: 'run the tests' } }));
    expect(await waitForFrame(lastFrame, 'step 2/3')).toContain('execute_command npm test');
  });
});

describe('the transcript around the cards', () => {
  const pane = (transcript: TranscriptEntry[], agents: AgentInfo[] = [], prompt?: number) =>
    render(
      <ConversationPane
        transcript={transcript}
        agents={agents}
        width={100}
        liveWidth={100}
        liveRows={30}
        agentsExpanded
        showAgents
        prompt={prompt}
      />,
    );

  it('queued cards say "waiting for approval"; only the approved one runs', async () => {
    const { lastFrame } = pane([
      card({ id: 'a', summary: 'first', status: 'running', startedAt: Date.now() }),
      card({ id: 'b', summary: 'second', status: 'waiting' }),
      card({ id: 'c', summary: 'third', status: 'waiting' }),
    ]);
    const frame = await waitForFrame(lastFrame, 'third');
    expect(frame).toMatch(/first · running/);
    expect(frame).toMatch(/second · waiting for approval/);
    expect(frame).toMatch(/third · waiting for approval/);
  });

  it("the sub-agent group is this prompt's, not every sub-agent of the session", async () => {
    const agent = (id: string, prompt: number, status: AgentInfo['status']): AgentInfo => ({
      id,
      name: id,
      parentId: 'main',
      taskId: `t-${id}`,
      task: `task of ${id}`,
      status,
      prompt,
    });
    const agents = [agent('old1', 1, 'done'), agent('old2', 1, 'done'), agent('new1', 2, 'running')];
    const { lastFrame } = pane([{ kind: 'user', id: 'u', text: 'go' }], agents, 2);
    const frame = await waitForFrame(lastFrame, 'new1');
    expect(frame).toContain('1 sub-agent · 1 running');
    expect(frame).not.toContain('old1');
  });
});

describe('Ctrl+O in the app', () => {
  it('toggles a detailed transcript: every line of every card, then back to the last lines', async () => {
    const output = [...lines(25, 'progress'), 'FAILED'].join('\n');
    const core = new FakeCore({
      transcript: [{ kind: 'user', id: 'u', text: 'run the tests' }, card({ output, result: 'progress 1' })],
    });
    const view = await renderApp(core, { rows: 50 });
    await waitForFrame(view.lastFrame, '+21 lines');
    const printed = () => view.frames.join('');
    expect(printed()).not.toContain('progress 3\n');
    const before = view.frames.length;
    view.stdin.write(KEY.ctrl('o'));
    await waitForFrame(() => view.frames.slice(before).join(''), /progress 3\b/);
    const detailed = view.frames.slice(before).join('');
    for (const l of lines(25, 'progress')) expect(detailed).toMatch(new RegExp(`${l}\\b`));
    const again = view.frames.length;
    view.stdin.write(KEY.ctrl('o'));
    await waitForFrame(() => view.frames.slice(again).join(''), '+21 lines');
  });
});
