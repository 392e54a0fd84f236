import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest } from '../../../src/protocol';
import { makeRequest } from '../../helpers/fake-core';
import { KEY, press, type, waitUntil } from '../../helpers/ink';
import {
  burst,
  commandRequest,
  grantGlob,
  grantTool,
  modifyRequest,
  renderDrawer,
} from './approval-drawer-harness';

afterEach(() => cleanup());

const three = (): ApprovalRequest[] => [
  modifyRequest({ id: 'req-1' }),
  commandRequest({ id: 'req-2' }),
  makeRequest({
    id: 'req-3',
    agentName: 'scout',
    preview: { kind: 'diff', path: 'docs/c.md', before: '', after: 'c\n', isNew: true },
  }),
];

describe('ApprovalDrawer: decisions for tool cards', () => {
  it.each([
    ['y', { kind: 'approve' }],
    ['s', { kind: 'skip' }],
    ['c', { kind: 'cancel_task' }],
  ] as const)('%s sends %j', async (key, decision) => {
    const d = renderDrawer([modifyRequest()]);
    await d.ready();
    await press(d.stdin, key);
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([{ type: 'decide', id: 'req-1', decision }]),
    );
  });

  it('n opens the reason field; Enter sends the reason', async () => {
    const d = renderDrawer([modifyRequest()]);
    await d.ready();
    await press(d.stdin, 'n');
    await d.frame('reason ›');
    await type(d.stdin, 'use src/b.ts');
    await d.frame('use src/b.ts');
    await press(d.stdin, KEY.enter);
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'req-1', decision: { kind: 'reject', reason: 'use src/b.ts' } },
      ]),
    );
  });

  it('a reason typed in one burst keeps every key, up to the Enter that sends it', async () => {
    const d = renderDrawer([modifyRequest()]);
    await d.ready();
    await press(d.stdin, 'n');
    await d.frame('reason ›');
    burst(d.stdin, ...'use src/b.ts', KEY.backspace, KEY.backspace, 'j', 's', KEY.enter);
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'req-1', decision: { kind: 'reject', reason: 'use src/b.js' } },
      ]),
    );
  });

  it('an empty reason rejects without a reason; Esc goes back and sends nothing', async () => {
    const d = renderDrawer([modifyRequest()]);
    await d.ready();
    await press(d.stdin, 'n');
    await d.frame('reason ›');
    await press(d.stdin, KEY.escape);
    await d.frame('side by side');
    expect(d.core.sentOf('decide')).toEqual([]);
    await press(d.stdin, 'n');
    await d.frame('reason ›');
    await press(d.stdin, KEY.enter);
    await waitUntil(() => expect(d.core.sentOf('decide')).toHaveLength(1));
    expect(d.core.sentOf('decide')[0]?.decision).toStrictEqual({ kind: 'reject' });
  });

  it('a lists every scope with its exact rule; ↓ and + pick scope and minutes; Enter grants', async () => {
    const d = renderDrawer([modifyRequest({ grantOptions: [grantTool, grantGlob] })]);
    await d.ready();
    await press(d.stdin, 'a');
    let f = await d.frame('pick a scope');
    expect(f).toContain(grantTool.label);
    expect(f).toContain(grantGlob.label);
    expect(f).toContain(grantTool.ruleText);
    expect(f).toContain('for this session');
    await press(d.stdin, KEY.down);
    f = await d.frame(grantGlob.ruleText);
    await press(d.stdin, '+', '+');
    await d.frame('for 15 minutes');
    await press(d.stdin, '-');
    await d.frame('for 5 minutes');
    await press(d.stdin, '+', KEY.enter);
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        {
          type: 'decide',
          id: 'req-1',
          decision: { kind: 'approve_all', scope: { ...grantGlob, minutes: 15 } },
        },
      ]),
    );
  });

  it('approve-all without minutes leaves minutes out; Esc goes back', async () => {
    const d = renderDrawer([modifyRequest({ grantOptions: [{ ...grantTool, minutes: 60 }] })]);
    await d.ready();
    await press(d.stdin, 'a');
    await d.frame('for 60 minutes');
    await press(d.stdin, KEY.escape);
    await d.frame('side by side');
    await press(d.stdin, 'a');
    await d.frame('for 60 minutes');
    await press(d.stdin, '-', '-', '-', '-');
    await d.frame('for this session');
    await press(d.stdin, KEY.enter);
    await waitUntil(() => expect(d.core.sentOf('decide')).toHaveLength(1));
    expect(d.core.sentOf('decide')[0]?.decision).toStrictEqual({ kind: 'approve_all', scope: grantTool });
  });

  it('after a decision the card takes no second key until the request leaves', async () => {
    const d = renderDrawer([modifyRequest()]);
    await d.ready();
    await press(d.stdin, 'y');
    await d.frame('sending decision…');
    await press(d.stdin, 'y', 'n', 's', 'x');
    expect(d.core.sentOf('decide')).toHaveLength(1);
    expect(d.core.sentOf('report_invalid_input')).toEqual([]);
  });

  it('a refused edit (editError, or a new revision) unlocks the card', async () => {
    const req = modifyRequest();
    const d = renderDrawer([req]);
    await d.ready();
    await press(d.stdin, 'y');
    await d.frame('sending decision…');
    d.rerender({ pending: [{ ...req, editError: 'path escapes the project' }] });
    await d.frame('refused: path escapes the project');
    await press(d.stdin, 's');
    await waitUntil(() => expect(d.core.sentOf('decide')).toHaveLength(2));
    d.rerender({ pending: [{ ...req, editError: 'path escapes the project', revision: 2 }] });
    await d.frame((f) => !f.includes('sending decision…'));
    await press(d.stdin, 'c');
    await waitUntil(() =>
      expect(d.core.sentOf('decide').map((c) => c.decision.kind)).toEqual(['approve', 'skip', 'cancel_task']),
    );
  });

  it('? shows the keys; any key closes the help', async () => {
    const d = renderDrawer([modifyRequest()]);
    await d.ready();
    await press(d.stdin, '?');
    const f = await d.frame('any key closes');
    expect(f).toContain('approve all calls like it');
    expect(f).toContain('$EDITOR');
    await press(d.stdin, 'q');
    await d.frame('side by side');
    expect(d.core.sent).toEqual([]);
  });
});

describe('ApprovalDrawer: unknown keys', () => {
  it('shows the hint, reports each to the core and shows its count', async () => {
    const d = renderDrawer([modifyRequest()]);
    await d.ready();
    await press(d.stdin, 'x');
    // The hint is the card's footer from the keymap: E, u and f included; no scope offered, no `a all`.
    await d.frame(
      'unknown key "x" · y approve · n reject · s skip · e edit · E $EDITOR · c cancel · u layout · f full screen · ? help',
    );
    await press(d.stdin, KEY.enter);
    await waitUntil(() =>
      expect(d.core.sentOf('report_invalid_input')).toEqual([
        { type: 'report_invalid_input', id: 'req-1' },
        { type: 'report_invalid_input', id: 'req-1' },
      ]),
    );
    d.core.emit({ type: 'approval_input_invalid', requestId: 'req-1', count: 3, limit: 5 });
    await d.frame('3/5 invalid keys');
    // A valid key resets nothing on the UI side; the core owns the count.
    await press(d.stdin, 'j');
    await d.frame('3/5 invalid keys');
    expect(d.core.sentOf('decide')).toEqual([]);
  });

  it.each([
    [
      'a diff with scopes',
      modifyRequest({ grantOptions: [grantTool] }),
      'y approve · a all · A always · n reject · s skip · e edit · E $EDITOR · c cancel',
    ],
    [
      'a command',
      commandRequest(),
      'y approve · n reject · s skip · e edit · c cancel · f full screen · ? help · ↑/↓ Tab queue',
    ],
    [
      'a plan',
      makeRequest({ preview: { kind: 'plan', title: 'p', steps: ['a'] } }),
      'y approve · n reject · e edit steps · c cancel · ? help · ↑/↓ Tab queue',
    ],
  ])('the footer of %s lists the keys its card takes, from the keymap', async (_name, request, keys) => {
    const d = renderDrawer([request]);
    await d.ready(keys);
  });

  it('Esc and Ctrl chords are not counted', async () => {
    const d = renderDrawer([modifyRequest()]);
    await d.ready();
    await press(d.stdin, KEY.ctrl('x'), KEY.escape, 'x');
    await waitUntil(() => expect(d.core.sentOf('report_invalid_input')).toHaveLength(1));
  });
});

describe('ApprovalDrawer: queue', () => {
  it('lists every request with agent, tool, short arguments, risk and age', async () => {
    const d = renderDrawer(three());
    const f = await d.ready('docs/c.md');
    expect(f).toMatch(/› main\s+write_file\s+src\/a\.ts\s+MEDIUM\s+10s/);
    expect(f).toMatch(/tester\s+execute_command\s+npm test && rm -rf build\s+HIGH\s+10s/);
    expect(f).toMatch(/scout\s+write_file\s+docs\/c\.md/);
    expect(f).toContain('1 of 3');
  });

  it('↓ picks a request that is not the head, and keys act on it', async () => {
    const d = renderDrawer(three());
    await d.ready();
    await press(d.stdin, KEY.down, KEY.down);
    await d.frame('3 of 3');
    await press(d.stdin, 'y');
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'req-3', decision: { kind: 'approve' } },
      ]),
    );
  });

  it('Tab and Shift+Tab move too; the ends do not wrap', async () => {
    const d = renderDrawer(three());
    await d.ready();
    await press(d.stdin, KEY.up);
    await d.frame('1 of 3');
    await press(d.stdin, KEY.tab);
    await d.frame('2 of 3');
    await press(d.stdin, KEY.shiftTab);
    await d.frame('1 of 3');
  });

  it('the cursor follows its request id when the list shifts', async () => {
    const list = three();
    const d = renderDrawer(list);
    await d.ready();
    await press(d.stdin, KEY.down);
    await d.frame('2 of 3');
    const newcomer = makeRequest({
      id: 'req-0',
      preview: { kind: 'diff', path: 'z.ts', before: '', after: 'z', isNew: true },
    });
    d.rerender({ pending: [newcomer, ...list] });
    await d.frame('3 of 4');
    // Same card under the cursor: no grace window, the key acts at once.
    await press(d.stdin, 's');
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([{ type: 'decide', id: 'req-2', decision: { kind: 'skip' } }]),
    );
  });
});

describe('ApprovalDrawer: grace window', () => {
  it('ignores keys for 400 ms after the drawer appears', async () => {
    const d = renderDrawer([modifyRequest()]);
    await d.frame('Approval needed');
    await press(d.stdin, 'y');
    await d.frame('…');
    d.clock.t += 399;
    await press(d.stdin, 'y');
    expect(d.core.sent).toEqual([]);
    d.clock.t += 2;
    await press(d.stdin, 'y');
    await waitUntil(() => expect(d.core.sentOf('decide')).toHaveLength(1));
  });

  it('a key within 400 ms of the card changing by itself is ignored; after it, accepted', async () => {
    const list = three();
    const d = renderDrawer(list);
    await d.ready();
    // req-1 is resolved elsewhere: the cursor falls on req-2 by itself.
    d.rerender({ pending: list.slice(1) });
    await d.frame('1 of 2');
    await press(d.stdin, 'y');
    await d.frame('… card changed, keys paused');
    d.clock.t += 300;
    await press(d.stdin, 'y');
    expect(d.core.sentOf('decide')).toEqual([]);
    expect(d.core.sentOf('report_invalid_input')).toEqual([]);
    d.clock.t += 101;
    await press(d.stdin, 'y');
    // req-2 is high risk: the first y that acts arms it, the second runs it (issue 14 §6).
    await d.frame('press y again');
    await press(d.stdin, 'y');
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'req-2', decision: { kind: 'approve', confirmHigh: true } },
      ]),
    );
  });

  it('a double press after deciding never lands on the next card', async () => {
    const list = three();
    const d = renderDrawer(list);
    await d.ready();
    await press(d.stdin, 'y');
    await waitUntil(() => expect(d.core.sentOf('decide')).toHaveLength(1));
    d.rerender({ pending: list.slice(1) });
    await d.frame('1 of 2');
    await press(d.stdin, 'y');
    expect(d.core.sentOf('decide')).toHaveLength(1);
  });

  it('moving the cursor on purpose opens no window', async () => {
    const d = renderDrawer(three());
    await d.ready();
    await press(d.stdin, KEY.down, 'c');
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'req-2', decision: { kind: 'cancel_task' } },
      ]),
    );
  });
});

describe('ApprovalDrawer: full screen', () => {
  it('f toggles full screen, tells the shell, and hides the queue', async () => {
    const onFullScreen = vi.fn();
    const d = renderDrawer(three(), { onFullScreen });
    await d.ready();
    await press(d.stdin, 'f');
    const f = await d.frame('full screen (f)');
    expect(f).not.toContain('execute_command npm test');
    expect(onFullScreen).toHaveBeenLastCalledWith(true);
    await press(d.stdin, 'f');
    await d.frame((frame) => !frame.includes('full screen (f)'));
    expect(onFullScreen).toHaveBeenLastCalledWith(false);
    await press(d.stdin, 'f');
    await d.frame('full screen (f)');
    d.unmount();
    expect(onFullScreen).toHaveBeenLastCalledWith(false);
  });
});

describe('keys that outrun the screen', () => {
  it('↓ then y in one read never approves the card the person moved away from', async () => {
    const first = makeRequest({ id: 'req-1' });
    const second = makeRequest({
      id: 'req-2',
      args: { path: 'src/b.ts', content: 'b' },
      preview: { kind: 'diff', path: 'src/b.ts', before: '', after: 'b', isNew: true },
    });
    const d = renderDrawer([first, second]);
    await d.ready();
    d.stdin.write('\u001B[By');
    burst(d.stdin, KEY.down, 'y');
    await d.frame((f) => f.includes('2 of 2'));
    expect(d.core.sent.filter((c) => c.type === 'decide' && c.id === 'req-1')).toEqual([]);
  });

  it('n then y as separate writes opens the reason field and approves nothing', async () => {
    const d = renderDrawer([makeRequest({ id: 'req-1' })]);
    await d.ready();
    burst(d.stdin, 'n', 'y');
    await d.frame(/reason/i);
    expect(d.core.sent.filter((c) => c.type === 'decide')).toEqual([]);
  });
});

describe('Esc on a card', () => {
  it('cancels the running turn, and Esc inside a form only goes back', async () => {
    const d = renderDrawer([makeRequest({ id: 'req-1' })]);
    await d.ready();
    await press(d.stdin, 'n');
    await d.frame('reason ›');
    await press(d.stdin, KEY.escape);
    await d.frame((f) => !f.includes('reason ›'));
    expect(d.core.sent.filter((c) => c.type === 'cancel')).toEqual([]);
    await press(d.stdin, KEY.escape);
    await waitUntil(() =>
      expect(d.core.sent.filter((c) => c.type === 'cancel')).toEqual([{ type: 'cancel' }]),
    );
    expect(d.core.sentOf('decide')).toEqual([]);
  });
});
