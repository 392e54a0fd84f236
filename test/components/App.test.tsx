import { afterEach, describe, expect, it } from 'vitest';
import type { AgentInfo } from '../../src/protocol';
import { FakeCore, makeAuditRecord, makeRequest, makeTranscript } from '../helpers/fake-core';
import { KEY, press, type, waitForFrame, waitUntil } from '../helpers/ink';
import { renderApp, resize } from './app-harness';

afterEach(() => {
  delete process.env.NO_COLOR;
});

async function submit(stdin: { write: (s: string) => void }, text: string) {
  await type(stdin, text);
  await press(stdin, KEY.enter);
}

describe('App', () => {
  it('renders the status bar and prompt, and sends a typed prompt as submit', async () => {
    const core = new FakeCore({ model: { name: 'gpt-4o', demo: false }, root: '/home/tester/proj' });
    const { stdin, lastFrame } = await renderApp(core);
    const frame = await waitForFrame(lastFrame, 'gpt-4o');
    expect(frame).toContain('~/proj');
    expect(frame).toContain('›');
    await submit(stdin, 'add a test');
    expect(core.sent).toEqual([{ type: 'submit', text: 'add a test' }]);
  });

  it('labels a demo session in the status bar', async () => {
    const core = new FakeCore({ model: { name: 'scripted', demo: true } });
    const { lastFrame } = await renderApp(core);
    await waitForFrame(lastFrame, '[DEMO · scripted model, no API key]');
  });

  it('sends submit while busy and shows the core’s answer under the prompt', async () => {
    const core = new FakeCore({ busy: true });
    core.onCommand = (cmd, c) => {
      if (cmd.type === 'submit')
        c.emit({ type: 'notice', level: 'warn', text: 'a turn is running; wait or press Esc' });
    };
    const { stdin, lastFrame } = await renderApp(core);
    await submit(stdin, 'another');
    expect(core.sentOf('submit')).toEqual([{ type: 'submit', text: 'another' }]);
    await waitForFrame(lastFrame, 'a turn is running; wait or press Esc');
  });

  it('Esc cancels the running turn, and does nothing when idle', async () => {
    const core = new FakeCore({ busy: false });
    const { stdin, lastFrame } = await renderApp(core);
    await press(stdin, KEY.escape);
    expect(core.sent).toEqual([]);
    core.update({ busy: true });
    await waitForFrame(lastFrame, 'working (Esc cancels)');
    await press(stdin, KEY.escape);
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'cancel' }]));
  });

  it('Ctrl+C once warns, twice quits', async () => {
    const core = new FakeCore();
    const { stdin, lastFrame } = await renderApp(core);
    await press(stdin, KEY.ctrlC);
    await waitForFrame(lastFrame, 'press Ctrl+C again to quit');
    expect(core.sent).toEqual([]);
    await press(stdin, KEY.ctrlC);
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'quit' }]));
  });

  it('Shift+Tab cycles the mode (into auto only after a confirmation: App.polish.test.tsx)', async () => {
    const core = new FakeCore({ mode: 'manual' });
    const { stdin } = await renderApp(core);
    await press(stdin, KEY.shiftTab);
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'set_mode', mode: 'auto-edit' }]));
  });

  it('Ctrl+T toggles the audit sidebar, which follows recentAudit live', async () => {
    const core = new FakeCore({
      agents: [{ id: 'sub-1', name: 'scout', parentId: 'main', taskId: 't', task: 'x', status: 'done' }],
      recentAudit: [makeAuditRecord({ tool: 'write_file', outcome: 'executed', approver: 'human' })],
    });
    const { stdin, lastFrame } = await renderApp(core);
    expect(lastFrame()).not.toContain('Audit · latest');
    await press(stdin, KEY.ctrl('t'));
    let frame = await waitForFrame(lastFrame, 'Audit · latest');
    expect(frame).toContain('write_file');
    expect(frame).toMatch(/main executed by human/);
    core.update((s) => ({
      recentAudit: [
        ...s.recentAudit,
        makeAuditRecord({
          tool: 'execute_command',
          agentId: 'sub-1',
          outcome: 'rejected',
          approver: 'human',
        }),
      ],
    }));
    frame = await waitForFrame(lastFrame, 'execute_command');
    expect(frame).toMatch(/scout rejected by human/);
    expect(frame.indexOf('execute_command')).toBeLessThan(frame.indexOf('write_file'));
    await press(stdin, KEY.ctrl('t'));
    await waitForFrame(lastFrame, (f) => !f.includes('Audit · latest'));
    expect(core.sent).toEqual([]);
  });

  it('Ctrl+G collapses and expands the sub-agent group', async () => {
    const agents: AgentInfo[] = [
      { id: 's1', name: 'scout', parentId: 'main', taskId: 't', task: 'map the modules', status: 'running' },
    ];
    const core = new FakeCore({ busy: true, agents });
    const { stdin, lastFrame } = await renderApp(core);
    await waitForFrame(lastFrame, 'scout running — map the modules');
    await press(stdin, KEY.ctrl('g'));
    const frame = await waitForFrame(lastFrame, '▸ 1 sub-agent');
    expect(frame).not.toContain('map the modules');
    await press(stdin, KEY.ctrl('g'));
    await waitForFrame(lastFrame, 'map the modules');
  });

  it('gives the drawer the keyboard while requests are pending, and the prompt back after', async () => {
    const core = new FakeCore();
    const { stdin, lastFrame } = await renderApp(core);
    core.update({ pending: [makeRequest({ id: 'r1' }), makeRequest({ id: 'r2' })] });
    const frame = await waitForFrame(lastFrame, 'DRAWER 2 pending · active=true');
    expect(frame).toContain('● 2 pending');
    await type(stdin, 'zy');
    await waitUntil(() =>
      expect(core.sent).toEqual([{ type: 'decide', id: 'r1', decision: { kind: 'approve' } }]),
    );
    expect(lastFrame()).not.toContain('zy');
    core.update({ pending: [] });
    await waitForFrame(lastFrame, (f) => !f.includes('DRAWER'));
    await submit(stdin, 'next');
    expect(core.sentOf('submit')).toEqual([{ type: 'submit', text: 'next' }]);
  });

  it('lets the drawer take the whole screen, hiding the prompt', async () => {
    const core = new FakeCore({ pending: [makeRequest()] });
    const { stdin, lastFrame } = await renderApp(core, { rows: 30 });
    await waitForFrame(lastFrame, 'DRAWER 1 pending');
    await press(stdin, 'f');
    const frame = await waitForFrame(lastFrame, 'x28');
    expect(frame).not.toContain('›');
  });

  it('shows the real approval drawer for a pending request', async () => {
    const core = new FakeCore({ pending: [makeRequest({ tool: 'write_file' })] });
    const { lastFrame } = await renderApp(core, { realDrawer: true });
    const frame = await waitForFrame(lastFrame, 'write_file');
    expect(frame).toContain('1 pending');
  });

  it('Ctrl+T opens the sidebar while a card is open, and marks the earlier decisions on the call it asks about (issue 33)', async () => {
    const request = makeRequest({ tool: 'execute_command', argsHash: 'same-call' });
    const core = new FakeCore({
      pending: [request],
      recentAudit: [
        makeAuditRecord({
          tool: 'execute_command',
          argsHash: 'same-call',
          outcome: 'rejected',
          approver: 'human',
        }),
        makeAuditRecord({ tool: 'write_file', argsHash: 'other', outcome: 'executed', approver: 'human' }),
      ],
    });
    const { stdin, lastFrame } = await renderApp(core, { realDrawer: true, columns: 120 });
    await waitForFrame(lastFrame, '1 pending');
    await press(stdin, KEY.ctrl('t'));
    const frame = await waitForFrame(lastFrame, 'Audit · latest');
    expect(frame).toMatch(/▶\S+ main rejected by human/);
    expect(frame).not.toMatch(/▶\S+ main executed/);
    // The key reached the sidebar, not the card.
    expect(core.sentOf('decide')).toEqual([]);
  });

  it('lays out again on resize: the sidebar is a column beside the conversation, and folds away when narrow, saying so', async () => {
    const core = new FakeCore({ recentAudit: [makeAuditRecord()] });
    const { stdin, stdout, lastFrame } = await renderApp(core, { columns: 100 });
    await press(stdin, KEY.ctrl('t'));
    let frame = await waitForFrame(lastFrame, 'Audit · latest');
    const side = frame.split('\n').find((l) => l.includes('Audit · latest')) ?? '';
    expect(side.indexOf('Audit · latest')).toBeGreaterThan(50);
    // A column: from the top of the live area down to the prompt line.
    const rows = frame.split('\n');
    expect(rows.findIndex((l) => l.includes('Audit · latest'))).toBeLessThan(
      rows.findIndex((l) => l.startsWith('›')),
    );
    resize(stdout, 60, 30);
    frame = await waitForFrame(lastFrame, 'audit sidebar folded away');
    expect(frame).not.toContain('Audit · latest');
    expect(frame).toContain('needs 100 columns');
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('renders a 2 000-entry transcript and still answers a keypress with a new frame', async () => {
    const core = new FakeCore({ transcript: makeTranscript(2000) });
    const { stdin, lastFrame, frames } = await renderApp(core);
    await waitForFrame(lastFrame, 'answer 1999', 20_000);
    const before = frames.length;
    await type(stdin, 'q');
    await waitForFrame(lastFrame, (f) => /› q/.test(f));
    expect(frames.length).toBeGreaterThan(before);
  });

  it('coalesces a burst of message deltas into few renders', async () => {
    const core = new FakeCore({ busy: true });
    const { lastFrame, frames } = await renderApp(core);
    const before = frames.length;
    let text = '';
    for (let i = 0; i < 200; i++) {
      text += `w${i} `;
      core.state = {
        ...core.state,
        transcript: [{ kind: 'assistant', id: 'a1', agentId: 'main', text, streaming: true }],
      };
      core.emit({ type: 'message_delta', agentId: 'main', text: `w${i} ` });
    }
    await waitForFrame(lastFrame, 'w199');
    expect(frames.length - before).toBeLessThan(10);
  });
});
