import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CardView,
  type DrawerAction,
  type DrawerEffect,
  type DrawerState,
  HIGH_RISK_CONFIRM,
  gateKey,
  initialDrawerState,
  reduceDrawer,
} from '../../../components/drawer/drawer-state';
import type { ApprovalRequest, CoreCommand } from '../../../src/protocol';
import { press, waitUntil } from '../../helpers/ink';
import { burst, commandRequest, modifyRequest, renderDrawer } from './approval-drawer-harness';

// Issue 14 §6: a HIGH card needs a second key before it runs; approve-all is never offered for it.

afterEach(() => cleanup());

const VIEW: CardView = { width: 120, total: 10, viewport: 10, initial: 0 };
const high = (overrides: Partial<ApprovalRequest> = {}) => commandRequest({ id: 'h1', ...overrides });

/** Syncs the queue, lets every step paint, and collects what is sent. */
function play(request: ApprovalRequest, keys: string[], paint = true) {
  let state: DrawerState = initialDrawerState();
  const effects: DrawerEffect[] = [];
  const apply = (action: DrawerAction) => {
    const r = reduceDrawer(state, action);
    state = paint ? reduceDrawer(r.state, { type: 'painted' }).state : r.state;
    effects.push(...r.effects);
  };
  apply({ type: 'sync', pending: [request], now: 0 });
  apply({ type: 'grace_elapsed' });
  state = reduceDrawer(state, { type: 'painted' }).state;
  effects.length = 0;
  for (const id of keys) apply({ type: 'key', id, view: VIEW });
  const sent = effects.flatMap((e) => (e.kind === 'send' ? [e.command] : []));
  return {
    state,
    decided: sent.filter((c): c is Extract<CoreCommand, { type: 'decide' }> => c.type === 'decide'),
  };
}

describe('drawer-state: the second key of a high-risk card', () => {
  it.each<[string, ApprovalRequest, string[], number, string | undefined]>([
    ['one y on a HIGH card sends nothing and says so', high(), ['y'], 0, HIGH_RISK_CONFIRM],
    ['y, y on a HIGH card approves once', high(), ['y', 'y'], 1, undefined],
    [
      'y, j (scroll), y: the other key disarms, so nothing is sent',
      high(),
      ['y', 'j', 'y'],
      0,
      HIGH_RISK_CONFIRM,
    ],
    ['y, x (a mistake), y, y: armed again and approved', high(), ['y', 'x', 'y', 'y'], 1, undefined],
    ['one y on a medium card approves at once', modifyRequest({ id: 'm1' }), ['y'], 1, undefined],
  ])('%s', (_name, request, keys, decisions, message) => {
    const { state, decided } = play(request, keys);
    expect(decided).toHaveLength(decisions);
    // A high-risk approve carries its confirmation; a medium one needs none.
    const approve =
      request.risk.level === 'high' ? { kind: 'approve', confirmHigh: true } : { kind: 'approve' };
    if (decisions) expect(decided[0]?.decision).toEqual(approve);
    expect(state.message?.text).toBe(message);
  });

  it('y y in one burst before the warning is drawn: the second key is dropped, not a confirmation', () => {
    const { state } = play(high(), ['y'], false);
    expect(state.card.armed).toBe(true);
    // The component asks gateKey before every key: until the warning is painted, keys wait.
    expect(gateKey(state, 10_000).allowed).toBe(false);
  });

  it('a new card under the cursor starts disarmed', () => {
    const first = play(high(), ['y']).state;
    const next = reduceDrawer(first, { type: 'sync', pending: [high({ id: 'h2' })], now: 0 }).state;
    expect(next.card.armed).toBeUndefined();
  });
});

describe('ApprovalDrawer: a HIGH card asks for y twice', () => {
  it('shows the warning after the first y and approves after the second', async () => {
    const d = renderDrawer([high()]);
    await d.ready('NOT sandboxed');
    await press(d.stdin, 'y');
    const f = await d.frame('press y again');
    expect(f).toContain('HIGH RISK');
    expect(d.core.sentOf('decide')).toEqual([]);
    await press(d.stdin, 'y');
    await waitUntil(() =>
      expect(d.core.sentOf('decide')).toEqual([
        { type: 'decide', id: 'h1', decision: { kind: 'approve', confirmHigh: true } },
      ]),
    );
  });

  it('a held key (y y in one read) does not run it', async () => {
    const d = renderDrawer([high()]);
    await d.ready('NOT sandboxed');
    burst(d.stdin, 'y', 'y');
    await d.frame('press y again');
    expect(d.core.sentOf('decide')).toEqual([]);
  });

  it('never offers approve-all: no `a` in the footer, and `a` opens no scope', async () => {
    const d = renderDrawer([high({ grantOptions: [] })]);
    const f = await d.ready('NOT sandboxed');
    expect(f).not.toMatch(/\ba all\b/);
  });
});
