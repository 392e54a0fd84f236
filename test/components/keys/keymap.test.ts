import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import {
  APP_KEYS,
  AUDIT_DETAIL_KEYS,
  AUDIT_KEYS,
  CARD_KEYS,
  type CardKind,
  type CardOffer,
  CHORDS,
  cardHelp,
  cardKeyAction,
  footerLine,
  KEY_HELP,
  keyId,
  lookup,
  QUESTION_KEYS,
} from '../../../components/keys/keymap';
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

describe('one table, many views', () => {
  it('no key is bound twice within a table', () => {
    for (const table of [CARD_KEYS, QUESTION_KEYS, APP_KEYS, AUDIT_KEYS, AUDIT_DETAIL_KEYS]) {
      const keys = Object.values(table).flatMap((row) => [...row.keys]);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it.each<[CardKind, string[], string[]]>([
    ['diff', ['y', 'a', 'n', 's', 'e', 'E', 'c', 'u', 'f', '?', 'Esc', 'j/k', '↑/↓ Tab'], []],
    ['command', ['y', 'a', 'n', 's', 'e', 'c', 'f', '?'], ['E', 'u']],
    ['plan', ['y', 'n', 'e', 'c', '?', 'j/k'], ['a', 's', 'E', 'u', 'f']],
  ])('the ? help of a %s card lists exactly the keys it takes', (kind, shown, hidden) => {
    const keys = cardHelp(kind).map((r) => r.keys);
    for (const k of shown) expect(keys).toContain(k);
    for (const k of hidden) expect(keys).not.toContain(k);
    // Every help row's first key acts on this card.
    for (const k of keys) {
      const id = k === 'Esc' ? 'esc' : k === '↑/↓ Tab' ? 'up' : (k.split('/')[0] ?? k);
      expect(cardKeyAction(id, kind, new Set<CardOffer>(['grants', 'external_edit'])).kind).toBe('action');
    }
  });

  it('the app keys, /help and the chords come from one table', () => {
    expect(CHORDS).toEqual({ sidebar: 't', agents: 'g' });
    expect(lookup(APP_KEYS, keyId('t', { ...NO_KEY, ctrl: true }))).toBe('toggle_sidebar');
    expect(lookup(APP_KEYS, keyId('', { ...NO_KEY, tab: true, shift: true }))).toBe('cycle_mode');
    expect(KEY_HELP.map((r) => r.keys)).toEqual([
      'Enter',
      '↑ / ↓',
      'Tab',
      'Shift+Tab',
      'Esc',
      'Ctrl+T',
      'Ctrl+G',
      'Ctrl+C ×2',
    ]);
  });

  it('the audit browser footers are written from its tables', () => {
    expect(footerLine(Object.values(AUDIT_KEYS))).toBe(
      '←→ day · ↑↓ move · Enter details · t tool · o outcome · p approver · g agent · / search · x clear · Esc close',
    );
    expect(footerLine(Object.values(AUDIT_DETAIL_KEYS))).toBe(
      '↑↓ previous/next record · Esc back to the list',
    );
  });
});
