import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SpawnEditor } from '../../../components/drawer/external-editor';
import { makeRequest } from '../../helpers/fake-core';
import { KEY, press, type, waitUntil } from '../../helpers/ink';
import { burst, commandRequest, modifyRequest, renderDrawer } from './approval-drawer-harness';

afterEach(() => cleanup());

const planRequest = () =>
  makeRequest({
    id: 'req-plan',
    tool: 'propose_plan',
    args: { title: 'Fix the bug', steps: ['Read the code', 'Write a test', 'Fix it'] },
    preview: { kind: 'plan', title: 'Fix the bug', steps: ['Read the code', 'Write a test', 'Fix it'] },
  });

const questionRequest = (options?: string[]) =>
  makeRequest({
    id: 'req-q',
    tool: 'ask_user',
    args: { question: 'Which database?' },
    preview: { kind: 'question', question: 'Which database?', options },
  });

describe('card details', () => {
  it('shows who, why, what, risk and reasons, the rule, undo and the grant choices', async () => {
    const d = renderDrawer([
      commandRequest({
        agentName: 'tester',
        parentAgentId: 'main',
        taskId: 'task-9',
        step: { index: 2, total: 4, title: 'Run tests' },
        why: 'Check the fix',
      }),
    ]);
    const f = await d.ready();
    expect(f).toContain('tester · sub-agent of main · task task-9 · step 2/4 "Run tests"');
    expect(f).toContain('why   Check the fix');
    expect(f).toContain('what  execute_command npm test && rm -rf build');
    expect(f).toContain('risk  HIGH — deletes files');
    expect(f).toContain('rule  ask-commands (project) — Commands ask unless allowed.');
    expect(f).toContain('NOT reversible · asked 10s ago');
    expect(f).toContain('no approve-all scope');
  });
});

describe('what undo can put back', () => {
  it.each([
    [
      'a checkpointed command: the project files only',
      { undoRestoresFiles: true as const },
      'undo  project files reversible (undo restores them) · effects outside the project are NOT',
      'files reversible, other effects NOT',
    ],
    ['a command without a checkpoint of the project', {}, 'undo  NOT reversible', 'NOT reversible'],
    [
      'a checkpointed write',
      { reversible: true },
      'undo  reversible (undo restores it)',
      'HIGH · reversible',
    ],
  ])('%s', async (_l, fields, long, short) => {
    const wide = renderDrawer([commandRequest(fields)], { width: 160 });
    expect(await wide.ready()).toContain(long);
    const low = renderDrawer([commandRequest(fields)], { height: 16 });
    expect(await low.ready()).toContain(short);
  });
});

describe('a plan or a question runs nothing', () => {
  it.each([
    ['a plan', planRequest],
    ['a question', () => questionRequest(['sqlite', 'postgres'])],
  ])('%s: undo has nothing to take back, and the card does not claim otherwise', async (_l, make) => {
    for (const size of [{ width: 160 }, { height: 16 }]) {
      const f = await renderDrawer([make()], size).ready();
      expect(f).not.toContain('NOT reversible');
      if (f.includes('risk ') || f.includes('undo ')) expect(f).toContain('changes nothing itself');
    }
  });
});

describe('card details in a short drawer', () => {
  it('keeps what, the risk, undo and a refused edit when rows are few', async () => {
    const d = renderDrawer([commandRequest({ why: 'long '.repeat(50), editError: 'timeout too long' })], {
      height: 16,
    });
    const f = await d.ready();
    expect(f).toContain('what  execute_command npm test && rm -rf build · tester');
    expect(f).toContain('risk  HIGH · NOT reversible — deletes files');
    expect(f).toContain('edit  refused: timeout too long');
    expect(f).toContain('NOT sandboxed');
    expect(f.split('\n')).toHaveLength(16);
  });
});

describe('execute_command card', () => {
  it('not sandboxed: says so prominently, with parts, cwd, timeout and notes', async () => {
    const d = renderDrawer([commandRequest()]);
    const f = await d.ready('NOT sandboxed');
    expect(f).toContain('$ npm test && rm -rf build');
    expect(f).toContain('1. npm test');
    expect(f).toContain('2. rm -rf build');
    expect(f).toContain('cwd      /tmp/project');
    expect(f).toContain('timeout  2m');
    expect(f).toContain('note     rm -rf deletes a directory tree');
    // High risk: y arms, y again runs (issue 14 §6).
    await press(d.stdin, 'y');
    await d.frame('press y again');
    await press(d.stdin, 'y');
    await waitUntil(() =>
      expect(d.core.sentOf('decide')[0]?.decision).toEqual({ kind: 'approve', confirmHigh: true }),
    );
  });

  it('sandboxed: says sandboxed, never NOT sandboxed', async () => {
    const d = renderDrawer([commandRequest({}, true)]);
    const f = await d.ready('sandboxed ·');
    expect(f).not.toContain('NOT sandboxed');
  });

  it('lists every path the command writes right under the command, protected ones marked (issue 10 §3)', async () => {
    const preview = {
      kind: 'command' as const,
      command: 'echo x > package.json | tee out.txt',
      cwd: '/tmp/project',
      timeoutMs: 60_000,
      sandboxed: true,
      parts: ['echo x', 'tee out.txt'],
      notes: [],
    };
    const writes = [{ path: 'package.json', protected: 'package.json' }, { path: 'out.txt' }];
    const d = renderDrawer([
      commandRequest({ args: { command: preview.command }, preview: { ...preview, writes } }, true),
    ]);
    const f = await d.ready('writes   package.json (protected)');
    expect(f).toContain('writes   out.txt');
    expect(f.indexOf('$ echo x > package.json')).toBeLessThan(f.indexOf('writes   package.json'));
  });

  it('E and u are unknown on a command card', async () => {
    const d = renderDrawer([commandRequest()]);
    await d.ready();
    await press(d.stdin, 'E', 'u');
    await waitUntil(() => expect(d.core.sentOf('report_invalid_input')).toHaveLength(2));
  });
});

describe('json / MCP card', () => {
  it('shows the server, the tool and the arguments as JSON; y approves', async () => {
    const d = renderDrawer([
      makeRequest({
        id: 'req-mcp',
        tool: 'mcp__github__create_issue',
        args: { repo: 'o/r', title: 'Bug' },
        preview: { kind: 'json' },
      }),
    ]);
    const f = await d.ready('MCP server github');
    expect(f).toContain('tool create_issue');
    expect(f).toContain('"repo": "o/r"');
    await press(d.stdin, 'y');
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'req-mcp', decision: { kind: 'approve' } },
      ]),
    );
  });
});

describe('plan card', () => {
  it('y approves the plan with its steps', async () => {
    const d = renderDrawer([planRequest()]);
    const f = await d.ready('Plan: Fix the bug');
    expect(f).toContain(' 2. Write a test');
    await press(d.stdin, 'y');
    await waitUntil(() =>
      expect(d.core.sentOf('decide')[0]?.decision).toEqual({
        kind: 'approve_plan',
        steps: ['Read the code', 'Write a test', 'Fix it'],
      }),
    );
  });

  it('e edits the steps; Enter on the last saves the edited steps', async () => {
    const d = renderDrawer([planRequest()]);
    await d.ready('Plan: Fix the bug');
    await press(d.stdin, 'e');
    await d.frame('Edit the plan');
    await type(d.stdin, ' first');
    await d.frame('Read the code first');
    await press(d.stdin, KEY.down, KEY.ctrl('a'));
    await type(d.stdin, 'Then ');
    await press(d.stdin, KEY.ctrl('n'));
    await type(d.stdin, 'Run the tests');
    await press(d.stdin, KEY.down);
    await d.frame('Run the tests');
    expect(d.core.sentOf('decide')).toEqual([]);
    await press(d.stdin, KEY.enter);
    await waitUntil(() =>
      expect(d.core.sentOf('decide')[0]?.decision).toEqual({
        kind: 'approve_plan',
        steps: ['Read the code first', 'Then Write a test', 'Run the tests', 'Fix it'],
      }),
    );
  });

  it('keeps every key of edits typed in one burst, across step moves, up to the saving Enter', async () => {
    const d = renderDrawer([planRequest()]);
    await d.ready('Plan: Fix the bug');
    await press(d.stdin, 'e');
    await d.frame('Edit the plan');
    burst(
      d.stdin,
      ...' first',
      KEY.down,
      KEY.ctrl('a'),
      ...'Then ',
      KEY.ctrl('n'),
      ...'Run the tests',
      KEY.down,
      KEY.enter,
    );
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        {
          type: 'decide',
          id: 'req-plan',
          decision: {
            kind: 'approve_plan',
            steps: ['Read the code first', 'Then Write a test', 'Run the tests', 'Fix it'],
          },
        },
      ]),
    );
  });

  it('Ctrl+S right after typing saves the typed text', async () => {
    const d = renderDrawer([planRequest()]);
    await d.ready('Plan: Fix the bug');
    await press(d.stdin, 'e');
    await d.frame('Edit the plan');
    burst(d.stdin, KEY.ctrl('u'), KEY.down, KEY.down, '!', KEY.ctrl('s'));
    await waitUntil(() =>
      expect(d.core.sentOf('decide')[0]?.decision).toEqual({
        kind: 'approve_plan',
        steps: ['Write a test', 'Fix it!'],
      }),
    );
  });

  it('n rejects the plan with a reason; Esc leaves the editor without sending', async () => {
    const d = renderDrawer([planRequest()]);
    await d.ready('Plan: Fix the bug');
    await press(d.stdin, 'e');
    await d.frame('Edit the plan');
    await press(d.stdin, KEY.escape);
    await d.frame('Plan: Fix the bug');
    await press(d.stdin, 'n');
    await d.frame('Reject the plan');
    await type(d.stdin, 'too broad');
    await press(d.stdin, KEY.enter);
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'req-plan', decision: { kind: 'reject', reason: 'too broad' } },
      ]),
    );
  });
});

describe('question card', () => {
  it('↓ + Enter answers with the option', async () => {
    const d = renderDrawer([questionRequest(['Postgres', 'SQLite'])]);
    await d.ready('Which database?');
    await press(d.stdin, KEY.down, KEY.enter);
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'req-q', decision: { kind: 'answer', text: 'SQLite' } },
      ]),
    );
  });

  it('t opens a free-text answer', async () => {
    const d = renderDrawer([questionRequest(['Postgres', 'SQLite'])]);
    await d.ready('Which database?');
    await press(d.stdin, 't');
    await d.frame('answer ›');
    await type(d.stdin, 'DuckDB');
    await press(d.stdin, KEY.enter);
    await waitUntil(() =>
      expect(d.core.sentOf('decide')[0]?.decision).toEqual({ kind: 'answer', text: 'DuckDB' }),
    );
  });

  it('a free answer typed in one burst keeps every key, up to the Enter that sends it', async () => {
    const d = renderDrawer([questionRequest(['Postgres', 'SQLite'])]);
    await d.ready('Which database?');
    await press(d.stdin, 't');
    await d.frame('answer ›');
    burst(d.stdin, ...'DuckDV', KEY.backspace, 'B', KEY.home, ...'use ', KEY.end, KEY.enter);
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'req-q', decision: { kind: 'answer', text: 'use DuckDB' } },
      ]),
    );
  });

  it('the open field ignores keys in the grace window, then takes the next burst whole', async () => {
    const d = renderDrawer([questionRequest()]);
    await d.frame('answer ›');
    await press(d.stdin);
    burst(d.stdin, 'n', 'o', KEY.enter);
    await press(d.stdin);
    expect(d.core.sent).toEqual([]);
    expect(d.lastFrame()).not.toContain('answer › no');
    d.clock.t += 1000;
    burst(d.stdin, ...'yes', KEY.enter);
    await waitUntil(() =>
      expect(d.core.sentOf('decide')[0]?.decision).toEqual({ kind: 'answer', text: 'yes' }),
    );
  });

  it("a form field never sees keys while the card's key map owns them", async () => {
    const d = renderDrawer([questionRequest(['Postgres'])]);
    await d.ready('Which database?');
    await press(d.stdin, 't');
    await d.frame('answer ›');
    burst(d.stdin, 'x');
    await d.frame('answer › x');
    await press(d.stdin, KEY.escape);
    await d.frame('✎ type an answer');
    burst(d.stdin, 'y', 'z');
    await press(d.stdin, 't');
    const f = await d.frame('answer ›');
    expect(f).toContain('answer › x');
    expect(f).not.toMatch(/answer › x?y|answer › x?z/);
    expect(d.core.sentOf('report_invalid_input')).toHaveLength(2);
  });

  it.each([['n'], [KEY.escape]])('%j declines', async (key) => {
    const d = renderDrawer([questionRequest(['Postgres'])]);
    await d.ready('Which database?');
    await press(d.stdin, key);
    await waitUntil(() => expect(d.core.sentOf('decide')[0]?.decision).toEqual({ kind: 'reject' }));
  });

  it('without options the field is open; Esc declines', async () => {
    const d = renderDrawer([questionRequest()]);
    await d.ready('answer ›');
    await type(d.stdin, 'no');
    await press(d.stdin, KEY.enter);
    await waitUntil(() =>
      expect(d.core.sentOf('decide')[0]?.decision).toEqual({ kind: 'answer', text: 'no' }),
    );
    const d2 = renderDrawer([questionRequest()]);
    await d2.ready('answer ›');
    await press(d2.stdin, KEY.escape);
    await waitUntil(() => expect(d2.core.sentOf('decide')[0]?.decision).toEqual({ kind: 'reject' }));
  });

  it('an unknown key is reported', async () => {
    const d = renderDrawer([questionRequest(['a'])]);
    await d.ready('Which database?');
    await press(d.stdin, 'z');
    await waitUntil(() =>
      expect(d.core.sentOf('report_invalid_input')).toEqual([{ type: 'report_invalid_input', id: 'req-q' }]),
    );
  });
});

describe('edit arguments', () => {
  const req = () =>
    makeRequest({
      args: { path: 'src/a.ts', content: 'a' },
      preview: { kind: 'diff', path: 'src/a.ts', before: '', after: 'a', isNew: true },
    });

  it('invalid JSON shows the parse error and keeps the card; valid sends edit', async () => {
    const d = renderDrawer([req()]);
    await d.ready();
    await press(d.stdin, 'e');
    await d.frame('Edit arguments (JSON)');
    await press(d.stdin, '}', KEY.ctrl('s'));
    await d.frame('Invalid JSON');
    expect(d.core.sentOf('decide')).toEqual([]);
    await press(d.stdin, KEY.backspace, KEY.down, KEY.ctrl('e'), KEY.left, KEY.left);
    await type(d.stdin, 'x');
    await d.frame('"src/a.tsx"');
    await press(d.stdin, KEY.ctrl('s'));
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        {
          type: 'decide',
          id: 'req-1',
          decision: { kind: 'edit', args: { path: 'src/a.tsx', content: 'a' }, review: true },
        },
      ]),
    );
  });

  it('Ctrl+S right after a burst of edits saves them all', async () => {
    const d = renderDrawer([req()]);
    await d.ready();
    await press(d.stdin, 'e');
    await d.frame('Edit arguments (JSON)');
    burst(
      d.stdin,
      KEY.down,
      KEY.ctrl('e'),
      KEY.left,
      KEY.left,
      'x',
      KEY.down,
      KEY.ctrl('e'),
      KEY.left,
      'b',
      'c',
      KEY.ctrl('s'),
    );
    await waitUntil(() =>
      expect(d.core.sentOf('decide')[0]?.decision).toEqual({
        kind: 'edit',
        args: { path: 'src/a.tsx', content: 'abc' },
        review: true,
      }),
    );
  });

  it('Enter inserts a line and Esc cancels without sending', async () => {
    const d = renderDrawer([req()]);
    await d.ready();
    await press(d.stdin, 'e');
    await d.frame('Edit arguments (JSON)');
    await press(d.stdin, KEY.enter);
    await d.frame(/^5 }/m);
    await press(d.stdin, KEY.escape);
    await d.frame('new file');
    expect(d.core.sent).toEqual([]);
  });

  it('E opens $EDITOR on the proposed content with raw mode paused, then sends the edit', async () => {
    const calls: { command: string; args: string[]; name: string }[] = [];
    const events: string[] = [];
    const spawn: SpawnEditor = (command, args) => {
      const file = args[args.length - 1] ?? '';
      events.push('spawn');
      calls.push({ command, args: args.slice(0, -1), name: basename(file) });
      writeFileSync(file, 'export const a = 2;\n');
      return { status: 0 };
    };
    const d = renderDrawer([modifyRequest()], { spawnEditor: spawn, editor: 'myeditor --wait' });
    vi.spyOn(d.stdin, 'setRawMode').mockImplementation(((on: boolean) => {
      events.push(`raw:${on}`);
    }) as never);
    await d.ready();
    await press(d.stdin, 'E');
    await waitUntil(() => expect(d.core.sentOf('decide')).toHaveLength(1));
    expect(calls).toEqual([{ command: 'myeditor', args: ['--wait'], name: 'a.ts' }]);
    // Ink itself may drop raw mode afterwards, once the decided card stops listening.
    expect(events.slice(0, 3)).toEqual(['raw:false', 'spawn', 'raw:true']);
    expect(d.core.sentOf('decide')[0]?.decision).toEqual({
      kind: 'edit',
      args: { path: 'src/a.ts', content: 'export const a = 2;\n' },
      review: true,
    });
  });

  it('an editor that changes nothing or fails sends nothing and says so', async () => {
    const d = renderDrawer([modifyRequest()], { spawnEditor: () => ({ status: 0 }) });
    await d.ready();
    await press(d.stdin, 'E');
    await d.frame('without changes');
    const d2 = renderDrawer([modifyRequest()], { spawnEditor: () => ({ status: 1 }) });
    await d2.ready();
    await press(d2.stdin, 'E');
    await d2.frame('editor failed');
    expect([...d.core.sent, ...d2.core.sent]).toEqual([]);
  });
});
