import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CoreState } from '../../src/protocol';
import { FakeCore, makeAuditRecord, makeRequest } from '../helpers/fake-core';
import { KEY, press, waitForFrame } from '../helpers/ink';

/** SGR parameters that set a foreground/background color (30–49, 90–107, incl. 38;5/48;2 forms). */
const COLOR_SGR = /\u001B\[(?:\d+;)*(?:3\d|4\d|9[0-7]|10[0-7])(?:;\d+)*m/;

let renderApp: typeof import('./app-harness').renderApp;

beforeAll(async () => {
  // chalk decides its color level when first imported; force full color so that a missing
  // NO_COLOR check would show up as escape codes (test streams are not TTYs).
  process.env.FORCE_COLOR = '3';
  ({ renderApp } = await import('./app-harness'));
});

afterEach(() => {
  delete process.env.NO_COLOR;
});

const colorful: Partial<CoreState> = {
  model: { name: 'scripted', demo: true },
  mode: 'auto',
  sandboxed: false,
  busy: true,
  mcp: [{ name: 'jira', status: 'failed', tools: 0, error: 'ENOENT' }],
  recentAudit: [makeAuditRecord({ outcome: 'rejected' }), makeAuditRecord({ outcome: 'executed' })],
  agents: [{ id: 's1', name: 'scout', parentId: 'main', taskId: 't', task: 'look around', status: 'failed' }],
  transcript: [
    { kind: 'user', id: 'u1', text: 'go' },
    {
      kind: 'assistant',
      id: 'a1',
      agentId: 'main',
      text: 'Use `npm test`:\n```sh\nnpm test\n```',
      streaming: false,
    },
    {
      kind: 'tool',
      id: 't1',
      agentId: 'main',
      tool: 'write_file',
      summary: 'a.ts',
      status: 'rejected',
      result: 'no',
    },
    { kind: 'notice', id: 'n1', level: 'error', text: 'model unreachable' },
    { kind: 'tool', id: 't2', agentId: 's1', tool: 'grep', summary: 'x', status: 'waiting' },
  ],
};

async function renderColorful() {
  const core = new FakeCore(colorful);
  const view = await renderApp(core, { rows: 40 });
  await press(view.stdin, KEY.ctrl('t'));
  await waitForFrame(view.lastFrame, 'Audit · latest');
  core.update({ pending: [makeRequest()] });
  await waitForFrame(view.lastFrame, '● 1 pending');
  return view;
}

describe('NO_COLOR', () => {
  it('colors the screen when NO_COLOR is not set (control)', async () => {
    const { lastFrame } = await renderColorful();
    expect(lastFrame()).toMatch(COLOR_SGR);
  });

  it('emits no color codes at all when NO_COLOR is set, and keeps every meaning readable', async () => {
    process.env.NO_COLOR = '1';
    const { frames } = await renderColorful();
    const all = frames.join('\n');
    expect(all).not.toMatch(COLOR_SGR);
    const frame = await waitForFrame(() => frames.at(-1), 'Audit · latest');
    for (const text of [
      '[DEMO',
      '⚠ sandbox off',
      '● 1 pending',
      '✗ mcp: jira',
      '✗ write_file a.ts · rejected',
      'waiting for approval',
      '✗ model unreachable',
      '`npm test`',
      'scout failed',
      'rejected by human',
    ]) {
      expect(frame).toContain(text);
    }
  });
});
