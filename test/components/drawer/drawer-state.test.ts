import { describe, expect, it } from 'vitest';
import {
  type CardView,
  type DrawerAction,
  type DrawerEffect,
  type DrawerState,
  GRACE_MS,
  gateKey,
  initialDrawerState,
  isDeciding,
  reduceDrawer,
  scrolled,
  selected,
} from '../../../components/drawer/drawer-state';
import type { ApprovalRequest } from '../../../src/protocol';
import { makeRequest } from '../../helpers/fake-core';
import { grantTool } from './approval-drawer-harness';

const VIEW: CardView = { width: 120, total: 50, viewport: 10, initial: 5 };
const T = 1_000_000;

const req = (id: string, overrides: Partial<ApprovalRequest> = {}) => makeRequest({ id, ...overrides });
const diff = (id = 'r1') =>
  req(id, {
    args: { path: 'a.ts', content: 'new' },
    preview: { kind: 'diff', path: 'a.ts', before: 'old', after: 'new', isNew: false },
  });
const command = (id = 'c1') =>
  req(id, {
    tool: 'execute_command',
    preview: {
      kind: 'command',
      command: 'ls',
      cwd: '/p',
      timeoutMs: 1,
      sandboxed: true,
      parts: ['ls'],
      notes: [],
    },
  });
const plan = (id = 'p1') => req(id, { preview: { kind: 'plan', title: 't', steps: ['one', 'two'] } });
const question = (options?: string[]) =>
  req('q1', { preview: { kind: 'question', question: 'Which?', options } });

/** Key ids as the keymap names them, or whole actions. */
type Step = string | DrawerAction;

/** Syncs `pending`, lets the screen settle after each step, and collects every effect. */
function play(pending: ApprovalRequest[], steps: Step[], from: DrawerState = initialDrawerState()) {
  let state = from;
  const effects: DrawerEffect[] = [];
  const apply = (action: DrawerAction) => {
    const r = reduceDrawer(state, action);
    state = reduceDrawer(r.state, { type: 'painted' }).state;
    effects.push(...r.effects);
  };
  apply({ type: 'sync', pending, now: T });
  apply({ type: 'grace_elapsed' });
  effects.length = 0;
  for (const step of steps) apply(typeof step === 'string' ? { type: 'key', id: step, view: VIEW } : step);
  return { state, effects, sent: effects.flatMap((e) => (e.kind === 'send' ? [e.command] : [])) };
}

describe('drawer-state: keys on a tool card → what is sent', () => {
  it.each<[string, ApprovalRequest, Step[], unknown[]]>([
    ['y approves', diff(), ['y'], [{ type: 'decide', id: 'r1', decision: { kind: 'approve' } }]],
    [
      'y twice sends once (locked until the request leaves)',
      diff(),
      ['y', 'y'],
      [{ type: 'decide', id: 'r1', decision: { kind: 'approve' } }],
    ],
    ['s skips', command(), ['s'], [{ type: 'decide', id: 'c1', decision: { kind: 'skip' } }]],
    ['c cancels the task', diff(), ['c'], [{ type: 'decide', id: 'r1', decision: { kind: 'cancel_task' } }]],
    ['Esc cancels the turn', diff(), ['esc'], [{ type: 'cancel' }]],
    ['x is reported', diff(), ['x'], [{ type: 'report_invalid_input', id: 'r1' }]],
    ['Enter is a mistake', diff(), ['enter'], [{ type: 'report_invalid_input', id: 'r1' }]],
    ['a chord is nothing', diff(), ['ctrl+x', 'left'], []],
    [
      'u and E are mistakes on a command card',
      command(),
      ['u', 'E'],
      [
        { type: 'report_invalid_input', id: 'c1' },
        { type: 'report_invalid_input', id: 'c1' },
      ],
    ],
    [
      'y on a plan approves its steps',
      plan(),
      ['y'],
      [{ type: 'decide', id: 'p1', decision: { kind: 'approve_plan', steps: ['one', 'two'] } }],
    ],
    ['s on a plan is a mistake', plan(), ['s'], [{ type: 'report_invalid_input', id: 'p1' }]],
    ['n opens the reason; y then goes to the form, not the card', diff(), ['n', 'y'], []],
    [
      'the reason form sends the rejection',
      diff(),
      ['n', { type: 'decide', decision: { kind: 'reject', reason: 'no' } }],
      [{ type: 'decide', id: 'r1', decision: { kind: 'reject', reason: 'no' } }],
    ],
    [
      'a form Esc goes back; y then approves',
      diff(),
      ['a', { type: 'back' }, 'y'],
      [{ type: 'decide', id: 'r1', decision: { kind: 'approve' } }],
    ],
    ['? opens help; any key closes it and acts on nothing', diff(), ['?', 'y'], []],
  ])('%s', (_name, request, steps, sent) => {
    expect(play([request], steps).sent).toEqual(sent);
  });

  it.each<[string, ApprovalRequest, Step[], string]>([
    ['n', diff(), ['n'], 'reject'],
    ['a', diff(), ['a'], 'grant'],
    ['e on a tool', diff(), ['e'], 'edit'],
    ['e on a plan', plan(), ['e'], 'plan_edit'],
    ['?', diff(), ['?'], 'help'],
    ['? then any key', diff(), ['?', 'q'], 'keys'],
    [
      'a saved plan edit',
      plan(),
      ['e', { type: 'decide', decision: { kind: 'approve_plan', steps: ['x'] } }],
      'keys',
    ],
  ])('mode after %s', (_name, request, steps, mode) => {
    expect(play([request], steps).state.card.mode).toBe(mode);
  });
});

describe('drawer-state: unknown keys', () => {
  it('the hint is the card footer from the keymap, with `a all` only when a scope is offered', () => {
    expect(play([diff()], ['x']).state.message?.text).toBe(
      'unknown key "x" · y approve · n reject · s skip · e edit · E $EDITOR · c cancel · u layout · f full screen · ? help · ↑/↓ Tab queue',
    );
    expect(play([req('g', { grantOptions: [grantTool] })], ['x']).state.message?.text).toContain(
      'y approve · a all · A always · n reject',
    );
  });

  it('counts from the core are kept per request and dropped when it leaves', () => {
    const { state } = play(
      [diff('a'), diff('b')],
      [{ type: 'invalid_count', requestId: 'a', count: 2, limit: 5 }],
    );
    expect(state.invalid).toEqual({ a: { count: 2, limit: 5 } });
    expect(reduceDrawer(state, { type: 'sync', pending: [diff('b')], now: T }).state.invalid).toEqual({});
  });
});

describe('drawer-state: queue cursor and grace window', () => {
  it('the first sync opens the grace window (the core tells the person: session/notify.ts)', () => {
    const r = reduceDrawer(initialDrawerState(), { type: 'sync', pending: [diff()], now: T });
    expect(r.effects).toEqual([{ kind: 'grace_timer', ms: GRACE_MS }]);
    expect(r.state.waiting).toBe(true);
    expect(gateKey(r.state, T + GRACE_MS - 1)).toMatchObject({
      allowed: false,
      effects: [{ kind: 'grace_timer', ms: 1 }],
    });
    expect(gateKey(r.state, T + GRACE_MS)).toMatchObject({
      allowed: true,
      state: { waiting: false },
      effects: [{ kind: 'grace_cancel' }],
    });
  });

  it('↓ moves on purpose: no window, but keys wait for the screen', () => {
    const { state } = play([diff('a'), diff('b')], []);
    const moved = reduceDrawer(state, { type: 'key', id: 'down', view: VIEW }).state;
    expect(selected(moved)?.id).toBe('b');
    expect(moved.waiting).toBe(false);
    expect(gateKey(moved, T + 10_000).allowed).toBe(false);
    expect(gateKey(reduceDrawer(moved, { type: 'painted' }).state, T + 10_000).allowed).toBe(true);
  });

  it.each<[string, Step[], string | undefined]>([
    ['↓ then ↓ at the end stays', ['down', 'down', 'down'], 'c'],
    ['↑ at the top stays', ['up'], 'a'],
    ['Tab and Shift+Tab', ['tab', 'tab', 'shift+tab'], 'b'],
  ])('%s', (_name, steps, id) => {
    expect(selected(play([diff('a'), diff('b'), diff('c')], steps).state)?.id).toBe(id);
  });

  it('the cursor follows its id when the list shifts, and stays at its place when its request leaves', () => {
    const { state } = play([diff('a'), diff('b'), diff('c')], ['down']);
    const shifted = reduceDrawer(state, {
      type: 'sync',
      pending: [diff('z'), diff('a'), diff('b'), diff('c')],
      now: T,
    }).state;
    expect(selected(shifted)?.id).toBe('b');
    const left = reduceDrawer(shifted, {
      type: 'sync',
      pending: [diff('z'), diff('a'), diff('c')],
      now: T + 5,
    });
    expect(selected(left.state)?.id).toBe('c');
    // The card changed by itself: keys wait GRACE_MS.
    expect(left.effects).toEqual([{ kind: 'grace_timer', ms: GRACE_MS }]);
    expect(left.state.graceUntil).toBe(T + 5 + GRACE_MS);
  });

  it('a refused edit (a new revision) unlocks the card', () => {
    const { state } = play([diff()], ['y']);
    expect(isDeciding(state, selected(state))).toBe(true);
    const back = reduceDrawer(state, {
      type: 'sync',
      pending: [{ ...diff(), revision: 2, editError: 'no' }],
      now: T,
    }).state;
    expect(isDeciding(back, selected(back))).toBe(false);
    expect(back.card.id).toBe('r1');
  });
});

describe('drawer-state: scroll, layout, full screen, $EDITOR', () => {
  it.each<[string, Step[], number]>([
    ['j from the initial offset', ['j'], 6],
    ['k', ['k'], 4],
    ['PgDn keeps one row of overlap', ['pgdn'], 14],
    ['G and End go to the last page', ['G'], 40],
    ['g goes to the top', ['end', 'home'], 0],
  ])('%s', (_name, steps, offset) => {
    expect(play([diff()], steps).state.card.scroll).toBe(offset);
  });

  it('scrolled clamps to the content', () => {
    expect(scrolled(0, 'line-up', 50, 10)).toBe(0);
    expect(scrolled(99, 'line-down', 50, 10)).toBe(40);
    expect(scrolled(3, 'bottom', 5, 10)).toBe(0);
  });

  it('u toggles the layout and says when the terminal is too narrow', () => {
    const wide = play([diff()], ['u']).state;
    expect(wide.layout).toBe('unified');
    expect(wide.message).toBeUndefined();
    const narrow = reduceDrawer(play([diff()], []).state, {
      type: 'key',
      id: 'u',
      view: { ...VIEW, width: 80 },
    }).state;
    expect(narrow.message?.text).toContain('side by side needs 100 columns');
  });

  it('f toggles full screen and tells the shell', () => {
    const r = play([diff()], ['f', 'f']);
    expect(r.effects).toEqual([
      { kind: 'full_screen', on: true },
      { kind: 'full_screen', on: false },
    ]);
  });

  it('E opens $EDITOR on the content; a change is sent as an edit, no change says so', () => {
    const r = play([diff()], ['E']);
    expect(r.effects).toEqual([
      { kind: 'external_edit', id: 'r1', field: 'content', content: 'new', fileName: 'a.ts' },
    ]);
    const changed = play(
      [diff()],
      [
        {
          type: 'external_edit_done',
          id: 'r1',
          field: 'content',
          result: { kind: 'changed', content: 'mine' },
        },
      ],
    );
    expect(changed.sent).toEqual([
      {
        type: 'decide',
        id: 'r1',
        decision: { kind: 'edit', args: { path: 'a.ts', content: 'mine' }, review: true },
      },
    ]);
    const same = play(
      [diff()],
      [{ type: 'external_edit_done', id: 'r1', field: 'content', result: { kind: 'unchanged' } }],
    );
    expect(same.sent).toEqual([]);
    expect(same.state.message?.text).toBe('editor closed without changes; nothing sent');
  });
});

describe('drawer-state: question cards', () => {
  it.each<[string, string[] | undefined, Step[], unknown]>([
    ['↓ Enter answers with the option', ['A', 'B'], ['down', 'enter'], { kind: 'answer', text: 'B' }],
    ['n declines', ['A'], ['n'], { kind: 'reject' }],
    ['Esc declines', ['A'], ['esc'], { kind: 'reject' }],
    ['c cancels the task', ['A'], ['c'], { kind: 'cancel_task' }],
    [
      'the field sends its text',
      ['A'],
      ['t', { type: 'decide', decision: { kind: 'answer', text: 'C' } }],
      { kind: 'answer', text: 'C' },
    ],
    ['without options the field is open and Esc declines', undefined, [{ type: 'back' }], { kind: 'reject' }],
  ])('%s', (_name, options, steps, decision) => {
    expect(play([question(options)], steps).sent).toEqual([{ type: 'decide', id: 'q1', decision }]);
  });

  it('t and Enter on the last entry open the field; Esc goes back to the options; keys while typing belong to the field', () => {
    expect(play([question(['A'])], ['t']).state.card.typing).toBe(true);
    expect(play([question(['A'])], ['down', 'enter']).state.card.typing).toBe(true);
    expect(play([question(['A'])], ['t', 'n']).sent).toEqual([]);
    expect(play([question(['A'])], ['t', { type: 'back' }]).state.card.typing).toBe(false);
  });

  it('an unknown letter is reported; arrows past the ends are not', () => {
    expect(play([question(['A'])], ['z', 'up', 'left']).sent).toEqual([
      { type: 'report_invalid_input', id: 'q1' },
    ]);
  });
});
