import { describe, expect, it } from 'vitest';
import {
  type CardView,
  type DrawerState,
  initialDrawerState,
  reduceDrawer,
} from '../../../components/drawer/drawer-state';
import type { ApprovalRequest } from '../../../src/protocol';
import { makeRequest } from '../../helpers/fake-core';

const T = 1_000_000;
/** A folded diff with changes starting at rows 4, 12 and 20 of 30; the view shows 10 rows. */
const VIEW: CardView = {
  width: 120,
  total: 30,
  viewport: 10,
  initial: 0,
  diff: { changes: [4, 12, 20], change: 0, shiftMax: 50, shiftStep: 20 },
};
const request: ApprovalRequest = makeRequest({
  preview: { kind: 'diff', path: 'a.ts', before: 'a\n', after: 'b\n', isNew: false },
});

function play(keys: string[], view: CardView = VIEW): DrawerState {
  let state = reduceDrawer(initialDrawerState(), { type: 'sync', pending: [request], now: T }).state;
  state = reduceDrawer(state, { type: 'grace_elapsed' }).state;
  for (const id of keys) {
    state = reduceDrawer(state, { type: 'key', id, view }).state;
    state = reduceDrawer(state, { type: 'painted' }).state;
  }
  return state;
}

describe('drawer-state: the diff keys', () => {
  it.each([
    { keys: [']'], change: 1, message: undefined },
    { keys: [']', ']'], change: 2, message: undefined },
    { keys: [']', ']', ']'], change: 2, message: 'this is the last change' },
    { keys: [']', '['], change: 0, message: undefined },
    { keys: ['['], change: undefined, message: 'this is the first change' },
    // One chunk holding two presses ("]]") is two jumps, not an unknown key.
    { keys: [']]'], change: 2, message: undefined },
  ])('$keys → change $change', ({ keys, change, message }) => {
    const s = play(keys);
    expect(s.card.change).toBe(change);
    expect(s.message?.text).toBe(message);
  });

  it('scrolling forgets the jump; the next jump goes on from where the view is', () => {
    const s = play([']', 'j']);
    expect(s.card.change).toBeUndefined();
    expect(s.card.scroll).toBe(VIEW.initial + 1);
    // From offset 13 (change 1 at row 12 is above the lead), ] goes to change 2.
    const on = play(['j'], { ...VIEW, initial: 12, diff: { ...VIEW.diff!, change: 1 } });
    expect(play([']'], { ...VIEW, initial: 12 }).card.change).toBe(2);
    expect(on.card.scroll).toBe(13);
  });

  it('z unfolds and folds, keeping the change in view', () => {
    const s = play(['z'], { ...VIEW, diff: { ...VIEW.diff!, change: 2 } });
    expect(s.card.unfolded).toBe(true);
    expect(s.card.change).toBe(2);
    expect(s.card.scroll).toBeUndefined();
    expect(play(['z', 'z']).card.unfolded).toBe(false);
  });

  it('← → shift long lines by steps, clamped to the widest line in view', () => {
    expect(play(['right']).card.shift).toBe(20);
    expect(play(['right', 'right', 'right', 'right']).card.shift).toBe(50);
    expect(play(['right', 'left', 'left']).card.shift).toBe(0);
  });

  it('the diff keys mean nothing on a card without a diff view (no decision, nothing sent)', () => {
    const s = play([']', 'z'], { ...VIEW, diff: undefined });
    expect(s.card.change).toBeUndefined();
    expect(s.card.unfolded).toBeUndefined();
  });

  it('a repeated decision key is not repeated: "yy" stays an unknown key', () => {
    const s = play(['yy']);
    expect(s.message?.text).toContain('unknown key "yy"');
  });
});
