import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import {
  APP_KEYS,
  AUDIT_DETAIL_KEYS,
  AUDIT_KEYS,
  AUDIT_SEARCH_KEYS,
  CARD_KEYS,
  type CardKind,
  type CardOffer,
  CHORDS,
  cardHelp,
  cardKeyAction,
  footerLine,
  GRANT_SAVE_KEYS,
  GRANTS_KEYS,
  HELP_PANEL_KEYS,
  KEY_HELP,
  type KeyRow,
  keyId,
  LIST_KEYS,
  MODE_CONFIRM_KEYS,
  lookup,
  MCP_KEYS,
  PANEL_FOOTERS,
  POLICY_KEYS,
  PROMPT_HINT,
  PROMPT_KEYS,
  QUESTION_KEYS,
  TRUST_KEYS,
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

  it("plan cards take the plan's-known-steps grant (a), but no skip or layout keys", () => {
    expect(approvalKeyAction('a', k(), 'plan')).toBe('approve_all');
    for (const input of ['s', 'u']) expect(approvalKeyAction(input, k(), 'plan')).toBe('invalid');
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
    const tables: Record<string, KeyRow>[] = [
      CARD_KEYS,
      QUESTION_KEYS,
      APP_KEYS,
      PROMPT_KEYS,
      AUDIT_KEYS,
      AUDIT_DETAIL_KEYS,
      AUDIT_SEARCH_KEYS,
      LIST_KEYS,
      GRANTS_KEYS,
      GRANT_SAVE_KEYS,
      MCP_KEYS,
      POLICY_KEYS,
      HELP_PANEL_KEYS,
      TRUST_KEYS,
      MODE_CONFIRM_KEYS,
    ];
    for (const table of tables) {
      const keys = Object.values(table).flatMap((row) => [...row.keys]);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it.each<[CardKind, string[], string[]]>([
    [
      'diff',
      ['y', 'a', 'n', 's', 'e', 'E', 'c', 'u', ']/[', 'z', '←/→', 'f', '?', 'Esc', 'j/k', '↑/↓ Tab'],
      [],
    ],
    ['command', ['y', 'a', 'n', 's', 'e', 'c', 'f', '?'], ['E', 'u', ']/[', 'z', '←/→']],
    ['plan', ['y', 'a', 'n', 'e', 'c', '?', 'j/k'], ['s', 'E', 'u', 'f']],
  ])('the ? help of a %s card lists exactly the keys it takes', (kind, shown, hidden) => {
    const keys = cardHelp(kind).map((r) => r.keys);
    for (const k of shown) expect(keys).toContain(k);
    for (const k of hidden) expect(keys).not.toContain(k);
    // Every help row's first key acts on this card.
    for (const k of keys) {
      const id =
        k === 'Esc' ? 'esc' : k === '↑/↓ Tab' ? 'up' : k === '←/→' ? 'right' : (k.split('/')[0] ?? k);
      expect(cardKeyAction(id, kind, new Set<CardOffer>(['grants', 'external_edit'])).kind).toBe('action');
    }
  });

  it('the app keys, /help and the chords come from one table', () => {
    expect(CHORDS).toEqual({ sidebar: 't', agents: 'g', detail: 'o', pause: 'p' });
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
      'Ctrl+O',
      'Ctrl+P',
      'Ctrl+C ×2',
    ]);
  });

  it('the audit browser footers are written from its tables', () => {
    expect(footerLine(Object.values(AUDIT_KEYS))).toBe(
      '←→ day · ↑↓ move · Enter details · t tool · o outcome · p approver · g agent · / search · x clear · Esc close',
    );
    expect(footerLine(Object.values(AUDIT_DETAIL_KEYS))).toBe(
      '↑↓ scroll · PgUp/PgDn page · Home/End top/end · ←→ previous/next record · Esc back to the list',
    );
  });

  it.each<[keyof typeof PANEL_FOOTERS, Record<string, KeyRow>]>([
    ['grants', GRANTS_KEYS],
    ['grant_save', GRANT_SAVE_KEYS],
    ['mcp', MCP_KEYS],
    ['policy', POLICY_KEYS],
    ['help', HELP_PANEL_KEYS],
    ['trust', TRUST_KEYS],
    ['audit', AUDIT_KEYS],
    ['audit_detail', AUDIT_DETAIL_KEYS],
  ])('the %s footer lists every action of its table, in table order', (panel, table) => {
    const footer = PANEL_FOOTERS[panel];
    let from = 0;
    for (const row of Object.values(table)) {
      if (!row.footer) continue;
      const at = footer.indexOf(`${row.show} ${row.footer}`, from);
      expect(at, `${panel}: ${row.show} ${row.footer}`).toBeGreaterThanOrEqual(from);
      from = at + 1;
      // The key shown is a key the row binds (↑↓ / ←→ stand for their arrows).
      const first = row.show.split(' / ')[0] ?? row.show;
      const id =
        {
          Esc: 'esc',
          Enter: 'enter',
          '↑↓': 'up',
          '←→': 'left',
          'Ctrl+C ×2': 'ctrl+c',
          'PgUp/PgDn': 'pgup',
          'Home/End': 'home',
        }[first] ?? first;
      expect(row.keys).toContain(id);
    }
    // Panels hide nothing: every action has a footer word (the audit's → folds into ←→).
    const unshown = Object.entries(table).filter(([, r]) => !r.footer);
    // The trust card's scroll keys act only in its whole-list view, whose own footer shows them.
    const elsewhere: Record<string, string[]> = {
      audit: ['day_next'],
      trust: ['up', 'down', 'page_up', 'page_down'],
    };
    expect(unshown.map(([a]) => a)).toEqual(elsewhere[panel] ?? []);
    if (panel === 'trust') expect(PANEL_FOOTERS.trust_list).toContain(`${TRUST_KEYS.up.show} scroll`);
  });

  it('the panels keep their keys and hints', () => {
    expect(PANEL_FOOTERS.grants).toBe(
      '↑↓ select · r revoke · p save to project · u save to user · Esc close',
    );
    expect(PANEL_FOOTERS.grant_save).toBe('Enter saves · Esc cancels');
    expect(PANEL_FOOTERS.mcp).toBe('↑↓ select · r restart · Esc close');
    expect(PANEL_FOOTERS.policy).toBe('Esc closes');
    expect(PANEL_FOOTERS.trust).toBe('t trust these files · n / Esc keep them held back');
    expect(lookup(GRANTS_KEYS, 'd')).toBe('revoke');
    expect(lookup(GRANTS_KEYS, 'backspace')).toBeUndefined();
    expect(lookup(GRANTS_KEYS, 'q')).toBe('close');
    expect(lookup(POLICY_KEYS, 'enter')).toBe('close');
    expect(lookup(TRUST_KEYS, 'esc')).toBe('keep');
    expect(lookup(PROMPT_KEYS, keyId('', { ...NO_KEY, tab: true, shift: true }))).toBeUndefined();
    expect(lookup(PROMPT_KEYS, keyId('c', { ...NO_KEY, ctrl: true }))).toBe('quit');
  });

  it("the prompt's idle hint is written from the prompt and app tables", () => {
    expect(PROMPT_HINT).toBe(
      'Enter send · ↑ / ↓ history · Tab complete · /help · Ctrl+T audit · Ctrl+C ×2 quit',
    );
  });
});
