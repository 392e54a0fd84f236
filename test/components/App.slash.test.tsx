import { describe, expect, it } from 'vitest';
import type { Grant } from '../../src/protocol';
import { FakeCore, makeAuditRecord, makeStats } from '../helpers/fake-core';
import { KEY, press, type, waitForFrame, waitUntil } from '../helpers/ink';
import { renderApp } from './app-harness';

const CLEAR = '\u001B[2J';

async function run(stdin: { write: (s: string) => void }, text: string) {
  await type(stdin, text);
  await press(stdin, KEY.enter);
}

const grant = (id: string, label: string): Grant => ({
  id,
  label,
  tool: 'execute_command',
  match: { kind: 'command_prefix', tokens: ['npm', 'test'] },
  agents: { kind: 'all' },
  ruleText: '{}',
  createdAt: '2025-01-02T10:00:00.000Z',
  uses: 3,
});

describe('App slash commands', () => {
  it('/help lists keys and commands, Esc closes it and the prompt works again', async () => {
    const core = new FakeCore();
    const { stdin, lastFrame } = await renderApp(core, { rows: 40 });
    await run(stdin, '/help');
    const top = await waitForFrame(lastFrame, 'Keys');
    for (const text of ['Ctrl+T', 'audit trail sidebar', 'Ctrl+G', 'Shift+Tab', 'Esc'])
      expect(top).toContain(text);
    // More rows than the terminal: the rest scrolls into view.
    expect(top).toMatch(/↓ \d+ below/);
    await press(stdin, KEY.end);
    const bottom = await waitForFrame(lastFrame, '/quit');
    for (const text of ['Commands', '/mode [manual|auto-edit|plan|auto]', '/undo [n]'])
      expect(bottom).toContain(text);
    expect(bottom).toMatch(/↑ \d+ above/);
    await press(stdin, KEY.escape);
    await waitForFrame(lastFrame, (f) => !f.includes('Help'));
    await run(stdin, 'hello');
    expect(core.sent).toEqual([{ type: 'submit', text: 'hello' }]);
  });

  it('/mode shows the mode, /mode <m> sets it, a bad mode is explained', async () => {
    const core = new FakeCore({ mode: 'manual' });
    const { stdin, lastFrame } = await renderApp(core);
    await run(stdin, '/mode');
    await waitForFrame(lastFrame, 'mode is manual');
    expect(core.sent).toEqual([]);
    await run(stdin, '/mode auto-edit');
    expect(core.sent).toEqual([{ type: 'set_mode', mode: 'auto-edit' }]);
    await run(stdin, '/mode yolo');
    await waitForFrame(lastFrame, 'unknown mode "yolo"');
    expect(core.sent).toHaveLength(1);
  });

  it('/audit opens the browser full screen; Esc returns to the prompt', async () => {
    const core = new FakeCore();
    core.onCommand = (cmd, c) => {
      if (cmd.type === 'query_audit') {
        queueMicrotask(() => {
          c.emit({
            type: 'audit_result',
            queryId: cmd.queryId,
            records: [makeAuditRecord({ tool: 'grep' })],
          });
          c.emit({ type: 'audit_stats', queryId: cmd.queryId, stats: makeStats({ total: 1 }) });
        });
      }
    };
    const { stdin, lastFrame, frames } = await renderApp(core);
    await run(stdin, '/audit');
    const frame = await waitForFrame(lastFrame, '1 records');
    expect(frame).toContain('Audit · 2025-01-02 (today)');
    expect(frame).not.toContain('›  ');
    expect(core.sentOf('query_audit')[0]?.query).toEqual({ from: '2025-01-02', to: '2025-01-02' });
    expect(frames.some((f) => f.includes(CLEAR))).toBe(false);
    await press(stdin, KEY.escape);
    await waitForFrame(lastFrame, (f) => !f.includes('Audit ·'));
    // The browser pushed the conversation out of sight; closing it prints the history again.
    await waitUntil(() => expect(frames.some((f) => f.includes(CLEAR))).toBe(true));
    await run(stdin, 'back');
    expect(core.sentOf('submit')).toEqual([{ type: 'submit', text: 'back' }]);
  });

  it('/grants lists grants; r revokes, p and u save to project and user after showing the rule', async () => {
    const core = new FakeCore({
      grants: [grant('g1', 'execute_command `npm test *`, all agents'), grant('g2', 'write_file src/**')],
    });
    const { stdin, lastFrame } = await renderApp(core);
    await run(stdin, '/grants');
    const frame = await waitForFrame(lastFrame, 'Grants (2)');
    expect(frame).toContain('execute_command `npm test *`, all agents');
    expect(frame).toContain('used 3×');
    await press(stdin, KEY.down, 'p');
    await waitForFrame(lastFrame, 'Save this rule to the project policy');
    await press(stdin, KEY.enter, 'u');
    await waitForFrame(lastFrame, 'Save this rule to the user policy');
    await press(stdin, KEY.enter, KEY.up, 'r');
    await waitUntil(() =>
      expect(core.sent).toEqual([
        { type: 'save_grant', grantId: 'g2', target: 'project' },
        { type: 'save_grant', grantId: 'g2', target: 'user' },
        { type: 'revoke_grant', grantId: 'g1' },
      ]),
    );
    core.update({ grants: [] });
    await waitForFrame(lastFrame, 'No approve-all grants');
  });

  it('/policy shows the mode and says what it does not know', async () => {
    const core = new FakeCore({ mode: 'auto', recentAudit: [makeAuditRecord({ rule: 'ask-writes' })] });
    const { stdin, lastFrame } = await renderApp(core, { rows: 40 });
    await run(stdin, '/policy');
    let frame = await waitForFrame(lastFrame, 'Rule sources');
    expect(frame).toContain('mode auto');
    expect(frame).toContain('hard guards');
    expect(frame).toContain('the core did not report its rule sources');
    expect(frame).toContain('ask-writes ×1');
    core.update({ policy: { sources: [{ source: 'project', path: '.warden/policy.json', rules: 4 }] } });
    frame = await waitForFrame(lastFrame, 'project .warden/policy.json · 4 rules');
    expect(frame).not.toContain('did not report');
  });

  it('/undo, /undo n, /clear and /cancel send their commands', async () => {
    const core = new FakeCore();
    const { stdin, lastFrame } = await renderApp(core);
    await run(stdin, '/undo');
    await run(stdin, '/undo 3');
    await run(stdin, '/undo many');
    await waitForFrame(lastFrame, '/undo takes a positive number');
    await run(stdin, '/clear');
    await run(stdin, '/cancel');
    expect(core.sent).toEqual([
      { type: 'undo', turns: 1 },
      { type: 'undo', turns: 3 },
      { type: 'clear' },
      { type: 'cancel' },
    ]);
  });

  it('/mcp lists servers with status and error; r restarts the selected one', async () => {
    const core = new FakeCore({
      mcp: [
        { name: 'github', status: 'ready', tools: 12 },
        { name: 'jira', status: 'failed', tools: 0, error: 'spawn jira-mcp ENOENT' },
      ],
    });
    const { stdin, lastFrame } = await renderApp(core);
    await run(stdin, '/mcp');
    const frame = await waitForFrame(lastFrame, 'MCP servers (2)');
    expect(frame).toContain('github ✓ ready · 12 tools');
    expect(frame).toContain('jira ✗ failed · 0 tools');
    expect(frame).toContain('spawn jira-mcp ENOENT');
    await press(stdin, KEY.down, 'r');
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'restart_mcp', server: 'jira' }]));
    await waitForFrame(lastFrame, 'restarting jira');
  });

  it('/quit sends quit', async () => {
    const core = new FakeCore();
    const { stdin } = await renderApp(core);
    await run(stdin, '/quit');
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'quit' }]));
  });

  it('an unknown command gets a hint and sends nothing; //text sends "/text"', async () => {
    const core = new FakeCore();
    const { stdin, lastFrame } = await renderApp(core);
    await run(stdin, '/frobnicate');
    await waitForFrame(lastFrame, 'unknown command /frobnicate — /help lists the commands');
    expect(core.sent).toEqual([]);
    await run(stdin, '//etc/hosts is odd');
    expect(core.sent).toEqual([{ type: 'submit', text: '/etc/hosts is odd' }]);
  });

  it('Tab completes a command in the app prompt', async () => {
    const core = new FakeCore();
    const { stdin, lastFrame } = await renderApp(core);
    await type(stdin, '/cl');
    await press(stdin, KEY.tab);
    await waitForFrame(lastFrame, '› /clear');
    await press(stdin, KEY.enter);
    expect(core.sent).toEqual([{ type: 'clear' }]);
  });
});
