import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ConversationPane } from '../../../components/transcript/ConversationPane';
import { splitTranscript } from '../../../components/transcript/transcript-split';
import type { AgentInfo, ToolCardStatus, TranscriptEntry } from '../../../src/protocol';
import { makeTranscript } from '../../helpers/fake-core';
import { waitForFrame, waitUntil } from '../../helpers/ink';

const CLEAR = '\u001B[2J';

type PaneProps = Parameters<typeof ConversationPane>[0];

function pane(transcript: TranscriptEntry[], props: Partial<PaneProps> = {}) {
  const all: PaneProps = {
    transcript,
    agents: [],
    width: 100,
    liveWidth: 100,
    liveRows: 40,
    agentsExpanded: true,
    showAgents: true,
    ...props,
  };
  const view = render(<ConversationPane {...all} />);
  return {
    ...view,
    rerenderWith: (next: Partial<PaneProps>) => view.rerender(<ConversationPane {...all} {...next} />),
  };
}

const tool = (status: ToolCardStatus, result = `${status}.ts`): TranscriptEntry => ({
  kind: 'tool',
  id: `t-${status}`,
  agentId: 'main',
  tool: 'write_file',
  summary: `src/${status}.ts`,
  status,
  result,
});

describe('ConversationPane', () => {
  it('renders user messages, assistant markdown with a borderless code block and a bulleted list', async () => {
    const text = [
      'Here is the plan:',
      '',
      '- read `a.ts`',
      '- write **b.ts**',
      '',
      '```ts',
      'const x = 1;',
      '```',
      'Done.',
    ].join('\n');
    const { lastFrame } = pane([
      { kind: 'user', id: 'u1', text: 'fix the bug' },
      { kind: 'assistant', id: 'a1', agentId: 'main', text, streaming: false },
    ]);
    const frame = await waitForFrame(lastFrame, 'Done.');
    expect(frame).toContain('› fix the bug');
    expect(frame).toContain('• read a.ts');
    expect(frame).toContain('• write b.ts');
    expect(frame).not.toMatch(/[╭╮╰╯│]/);
    expect(frame).toMatch(/^ {2}ts$/m);
    expect(frame).toMatch(/^ {2}const x = 1;$/m);
    expect(frame).not.toContain('```');
  });

  it('shows an unclosed fence of a streaming message as code', async () => {
    const { lastFrame } = pane([
      { kind: 'assistant', id: 'a1', agentId: 'main', text: 'Look:\n```\nnpm test', streaming: true },
    ]);
    const frame = await waitForFrame(lastFrame, 'npm test');
    expect(frame).toMatch(/^ {2}npm test$/m);
  });

  it('shows every tool status as a word, with a one-line result', async () => {
    const statuses: ToolCardStatus[] = [
      'waiting',
      'executed',
      'rejected',
      'blocked',
      'skipped',
      'cancelled',
      'timeout',
      'error',
    ];
    const { lastFrame } = pane([...statuses.map((s) => tool(s)), tool('running', 'line one\nline two')]);
    const frame = await waitForFrame(lastFrame, 'running');
    for (const word of [
      'waiting for approval',
      'executed',
      'rejected',
      'blocked',
      'skipped',
      'stopped',
      'timed out',
      'error',
    ]) {
      expect(frame).toContain(`· ${word}`);
    }
    expect(frame).toContain('write_file src/executed.ts');
    expect(frame).toContain('⎿ executed.ts');
  });

  it('labels sub-agent entries and groups sub-agents with name, task and status', async () => {
    const agents: AgentInfo[] = [
      { id: 'main', name: 'main', taskId: 't1', task: 'lead', status: 'running' },
      {
        id: 's1',
        name: 'scout',
        parentId: 'main',
        taskId: 't1',
        task: 'find the callers of parse()',
        status: 'running',
      },
      {
        id: 's2',
        name: 'fixer',
        parentId: 'main',
        taskId: 't1',
        task: 'patch the parser',
        status: 'done',
        report: 'patched 2 files',
      },
    ];
    const transcript: TranscriptEntry[] = [
      { kind: 'tool', id: 't1', agentId: 's1', tool: 'grep', summary: 'parse(', status: 'running' },
    ];
    const { lastFrame, rerenderWith } = pane(transcript, { agents });
    const frame = await waitForFrame(lastFrame, 'scout');
    expect(frame).toContain('[scout]');
    expect(frame).toContain('▾ 2 sub-agents · 1 running, 1 done');
    expect(frame).toContain('scout running — find the callers of parse()');
    expect(frame).toContain('fixer done — patched 2 files');
    expect(frame).not.toContain('lead');

    rerenderWith({ agentsExpanded: false });
    const collapsed = await waitForFrame(lastFrame, '▸ 2 sub-agents');
    expect(collapsed).toContain('(Ctrl+G expand)');
    expect(collapsed).not.toContain('patched 2 files');
  });

  it('shows notices with their level', async () => {
    const { lastFrame } = pane([
      { kind: 'notice', id: 'n1', level: 'warn', text: 'context is 90% full' },
      { kind: 'notice', id: 'n2', level: 'error', text: 'model unreachable' },
    ]);
    const frame = await waitForFrame(lastFrame, 'model unreachable');
    expect(frame).toContain('⚠ context is 90% full');
    expect(frame).toContain('✗ model unreachable');
  });

  it('keeps only the newest lines of a long live tail', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `streamed line ${i}`).join('\n');
    const { lastFrame } = pane([{ kind: 'assistant', id: 'a1', agentId: 'main', text, streaming: true }], {
      liveRows: 5,
    });
    const frame = await waitForFrame(lastFrame, 'streamed line 29');
    expect(frame).not.toContain('streamed line 20');
    expect(frame.split('\n').length).toBeLessThanOrEqual(5);
  });

  it('renders a 2 000-entry transcript', async () => {
    const { lastFrame } = pane(makeTranscript(2000));
    const frame = await waitForFrame(lastFrame, 'answer 1999', 20_000);
    expect(frame).toContain('question 0');
  });

  it('moves an entry into history once it is finished and keeps the order', async () => {
    const live: TranscriptEntry[] = [
      { kind: 'user', id: 'u1', text: 'go' },
      tool('running'),
      { kind: 'notice', id: 'n1', level: 'info', text: 'after the tool' },
    ];
    expect(splitTranscript(live).history.map((e) => e.id)).toEqual(['u1']);
    const done = live.map((e) => (e.kind === 'tool' ? { ...e, status: 'executed' as const } : e));
    expect(splitTranscript(done).live).toEqual([]);
    const { lastFrame, rerenderWith } = pane(live);
    await waitForFrame(lastFrame, 'running');
    rerenderWith({ transcript: done });
    const frame = await waitForFrame(lastFrame, '· executed');
    expect(frame.indexOf('go')).toBeLessThan(frame.indexOf('executed'));
    expect(frame.indexOf('executed')).toBeLessThan(frame.indexOf('after the tool'));
  });

  it('clears the screen and prints history again when the core drops printed entries (/clear, /undo)', async () => {
    const { lastFrame, frames, rerenderWith } = pane(makeTranscript(4));
    await waitForFrame(lastFrame, 'answer 3');
    expect(frames.some((f) => f.includes(CLEAR))).toBe(false);
    rerenderWith({ transcript: [...makeTranscript(4), { kind: 'user', id: 'u-new', text: 'appended' }] });
    await waitForFrame(lastFrame, 'appended');
    expect(frames.some((f) => f.includes(CLEAR))).toBe(false);
    rerenderWith({ transcript: [{ kind: 'user', id: 'fresh', text: 'after clear' }] });
    await waitUntil(() => expect(frames.some((f) => f.includes(CLEAR))).toBe(true));
    await waitForFrame(lastFrame, 'after clear');
  });

  it('prints history again at the new width once a resize settles', async () => {
    const { lastFrame, frames, rerenderWith } = pane(makeTranscript(2));
    await waitForFrame(lastFrame, 'answer 1');
    rerenderWith({ width: 70, liveWidth: 70 });
    await waitUntil(() => expect(frames.some((f) => f.includes(CLEAR))).toBe(true));
  });
});
