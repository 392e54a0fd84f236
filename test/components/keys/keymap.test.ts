import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { type CardKind, type CardOffer, cardKeyAction, keyId } from '../../../components/keys/keymap';
import { NO_KEY } from '../../helpers/ink';

const k = (patch: Partial<Key> = {}): Key => ({ ...NO_KEY, ...patch });

/** What one key press means on a card of `kind`: the action, or 'none' / 'invalid'. */
function approvalKeyAction(input: string, key: Key, kind: CardKind, canExternalEdit = false) {
  const offers = new Set<CardOffer>(canExternalEdit ? ['external_edit'] : []);
  const r = cardKeyAction(keyId(input, key), kind, offers);
  return r.kind === 'action' ? r.action : r.kind;
}

describe('approvalKeyAction', () => {
  it.each([
    ['y', 'approve'],
    ['a', 'approve_all'],
    ['n', 'reject'],
    ['s', 'skip'],
    ['e', 'edit'],
    ['c', 'cancel_task'],
    ['?', 'help'],
    ['u', 'toggle_layout'],
    ['f', 'toggle_full_screen'],
    ['j', 'line_down'],
    ['x', 'invalid'],
  ])('diff card: %s → %s', (input, kind) => {
    expect(approvalKeyAction(input, k(), 'diff', true)).toBe(kind);
  });

  it('E needs a content field to open $EDITOR', () => {
    expect(approvalKeyAction('E', k({ shift: true }), 'diff', true)).toBe('external_edit');
    expect(approvalKeyAction('E', k({ shift: true }), 'diff', false)).toBe('invalid');
  });

  it('plan cards take no grant, skip or layout keys', () => {
    for (const input of ['a', 's', 'u']) expect(approvalKeyAction(input, k(), 'plan')).toBe('invalid');
    expect(approvalKeyAction('y', k(), 'plan')).toBe('approve');
  });

  it('arrows and Tab move in the queue; Enter is a mistake; Esc cancels the turn; chords are nothing', () => {
    expect(approvalKeyAction('', k({ upArrow: true }), 'command')).toBe('queue_prev');
    expect(approvalKeyAction('', k({ tab: true }), 'command')).toBe('queue_next');
    expect(approvalKeyAction('', k({ tab: true, shift: true }), 'command')).toBe('queue_prev');
    expect(approvalKeyAction('\r', k({ return: true }), 'command')).toBe('invalid');
    expect(approvalKeyAction('', k({ escape: true }), 'command')).toBe('cancel_turn');
    expect(approvalKeyAction('y', k({ ctrl: true }), 'command')).toBe('none');
    expect(approvalKeyAction('', k({ pageDown: true }), 'json')).toBe('page_down');
  });
});
