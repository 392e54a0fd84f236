/**
 * Every key of the UI, one table per context: key → action → help label → where it applies. The
 * handlers look keys up here, and the footers, inline hints, the drawer's `?` help and /help are
 * all written from the same rows, so they cannot drift apart. Each table is a
 * `Record<Action, KeyRow>`: an action without its keys and help text does not compile.
 * Over 400 lines on purpose: it is data, and every key of the UI in one file is the point.
 */
import type { Key } from 'ink';

/** A key as the tables name it: a printable character ('y', 'E', '?') or a named key ('up', 'ctrl+s'). */
export type KeyId = string;

/** The card kinds of the approval drawer (preview kinds; a question card has its own table). */
export type CardKind = 'diff' | 'command' | 'json' | 'plan';

/** When a row is offered on a card: scopes to grant, or a file content to open in $EDITOR. */
export type CardOffer = 'grants' | 'external_edit';

/** One binding: the keys that trigger it, how help writes them, what it does. */
export type KeyRow = {
  keys: readonly KeyId[];
  /** The keys as help and footers show them. */
  show: string;
  /** The `?` / /help line. */
  help: string;
  /** The footer's word for it; rows without one are left out of the footer. */
  footer?: string;
};

/** A drawer card row: which kinds take it, kind-specific wording, and what must be on offer. */
export type CardKeyRow = KeyRow & {
  on: readonly CardKind[];
  /** Wording for one kind (a plan's `e` edits steps). */
  byKind?: Partial<Record<CardKind, Partial<Pick<KeyRow, 'help' | 'footer'>>>>;
  /** Shown in the footer only when the card offers it; without the offer `E` is a mistake. */
  offer?: CardOffer;
};

/** The names `keyId` gives keys that are not characters. */
const NAMED: ReadonlySet<KeyId> = new Set([
  'up',
  'down',
  'left',
  'right',
  'tab',
  'shift+tab',
  'pgup',
  'pgdn',
  'home',
  'end',
  'enter',
  'esc',
  'backspace',
]);

/** The key an Ink keypress is, in the tables' names. '' for a bare modifier or nothing. */
export function keyId(input: string, key: Key): KeyId {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.tab) return key.shift ? 'shift+tab' : 'tab';
  if (key.pageUp) return 'pgup';
  if (key.pageDown) return 'pgdn';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.return) return 'enter';
  if (key.escape) return 'esc';
  if (key.backspace || key.delete) return 'backspace';
  if (key.ctrl) return `ctrl+${input}`;
  if (key.meta) return `meta+${input}`;
  return input;
}

/** A printable key that means nothing here: counted as a mistake (chords and named keys are not). */
export function isMistake(id: KeyId): boolean {
  return id !== '' && !id.startsWith('ctrl+') && !id.startsWith('meta+') && !NAMED.has(id);
}

/** The action bound to `id` in `table`, if any. */
export function lookup<A extends string>(table: Record<A, KeyRow>, id: KeyId): A | undefined {
  for (const action of Object.keys(table) as A[]) if (table[action].keys.includes(id)) return action;
  return undefined;
}

/** "keys word · keys word" for the rows that have a footer word. */
export function footerLine(rows: readonly (Pick<KeyRow, 'show' | 'footer'> | undefined)[]): string {
  return rows.flatMap((r) => (r?.footer ? [`${r.show} ${r.footer}`] : [])).join(' · ');
}

/** A help table: one [keys, what] pair per row. */
export function helpRows(rows: readonly KeyRow[]): { keys: string; does: string }[] {
  return rows.map((r) => ({ keys: r.show, does: r.help }));
}

// ── The approval drawer: tool and plan cards ────────────────────────────────────────────────────

const TOOL: readonly CardKind[] = ['diff', 'command', 'json'];
const ALL: readonly CardKind[] = ['diff', 'command', 'json', 'plan'];

/** What a key does on a tool or plan card. Row order is footer and help order. */
export const CARD_KEYS = {
  approve: {
    keys: ['y'],
    show: 'y',
    footer: 'approve',
    help: 'approve this call once',
    on: ALL,
    byKind: { plan: { help: 'approve the plan' } },
  },
  approve_all: {
    keys: ['a'],
    show: 'a',
    footer: 'all',
    help: 'approve all calls like it (choose the scope and minutes)',
    on: ALL,
    offer: 'grants',
    // A plan card may grant the calls its steps name, until the plan is done.
    byKind: {
      plan: {
        help: 'approve the plan and allow its known steps (the commands and paths it names) until it is done',
      },
    },
  },
  always: {
    keys: ['A'],
    show: 'A',
    footer: 'always',
    help: "don't ask again: approve, and save the rule approve-all would grant to the project's or your policy file (shows the JSON, asks which file)",
    on: TOOL,
    offer: 'grants',
  },
  reject: {
    keys: ['n'],
    show: 'n',
    footer: 'reject',
    help: 'reject, with a reason the model reads',
    on: ALL,
    byKind: { plan: { help: 'reject the plan, with a reason' } },
  },
  skip: {
    keys: ['s'],
    show: 's',
    footer: 'skip',
    help: 'skip this call (the model is told it was skipped)',
    on: TOOL,
  },
  edit: {
    keys: ['e'],
    show: 'e',
    footer: 'edit',
    help: 'edit the arguments as JSON (Ctrl+S shows your version on the card, y runs it; Esc cancels)',
    on: ALL,
    byKind: {
      plan: {
        footer: 'edit steps',
        help: 'edit the steps (↑/↓ between steps, Ctrl+N new step, Enter on the last saves, Esc cancels)',
      },
    },
  },
  external_edit: {
    keys: ['E'],
    show: 'E',
    footer: '$EDITOR',
    help: 'open $EDITOR on the proposed content (the card then shows your diff; y runs it)',
    on: ['diff'],
    offer: 'external_edit',
  },
  cancel_task: {
    keys: ['c'],
    show: 'c',
    footer: 'cancel',
    help: "cancel the agent's whole task: its pending calls, its running command, its sub-agents",
    on: ALL,
  },
  // No footer word: the footer is full at 120 columns; `?` lists it.
  pause: {
    keys: ['p'],
    show: 'p',
    help: 'pause this agent after this card: no new model requests or calls (Ctrl+P or /go resumes)',
    on: ALL,
  },
  toggle_layout: {
    keys: ['u'],
    show: 'u',
    footer: 'layout',
    help: 'unified / side-by-side (side by side needs 100 columns)',
    on: ['diff'],
  },
  // The diff keys have no footer word: the diff's own count line offers them when they apply.
  next_change: {
    keys: [']'],
    show: ']/[',
    help: 'next / previous change (the header says which: "change 2 of 3 · line 1000")',
    on: ['diff'],
  },
  prev_change: { keys: ['['], show: '[', help: 'previous change', on: ['diff'] },
  toggle_folds: {
    keys: ['z'],
    show: 'z',
    help: 'show every unchanged line / fold them again (folded: 3 lines of context around each change)',
    on: ['diff'],
  },
  scroll_right: {
    keys: ['right'],
    show: '←/→',
    help: 'scroll long lines sideways (a changed line always keeps its change in view)',
    on: ['diff'],
  },
  scroll_left: { keys: ['left'], show: '←', help: 'scroll long lines back', on: ['diff'] },
  toggle_full_screen: { keys: ['f'], show: 'f', footer: 'full screen', help: 'full screen on/off', on: TOOL },
  help: { keys: ['?'], show: '?', footer: 'help', help: 'show these keys', on: ALL },
  cancel_turn: {
    keys: ['esc'],
    show: 'Esc',
    help: 'cancel the running turn (every pending request of it)',
    on: ALL,
  },
  line_down: {
    keys: ['j'],
    show: 'j/k',
    help: 'scroll a line (PgUp/PgDn a page, g/G or Home/End top/bottom)',
    on: ALL,
    byKind: { plan: { help: 'scroll the steps' } },
  },
  line_up: { keys: ['k'], show: 'k', help: 'scroll up a line', on: ALL },
  page_up: { keys: ['pgup'], show: 'PgUp', help: 'scroll up a page', on: ALL },
  page_down: { keys: ['pgdn'], show: 'PgDn', help: 'scroll down a page', on: ALL },
  top: { keys: ['g', 'home'], show: 'g', help: 'scroll to the top', on: ALL },
  bottom: { keys: ['G', 'end'], show: 'G', help: 'scroll to the bottom', on: ALL },
  queue_prev: {
    keys: ['up', 'shift+tab'],
    show: '↑/↓ Tab',
    footer: 'queue',
    help: 'pick another pending request',
    on: ALL,
  },
  queue_next: { keys: ['down', 'tab'], show: '↓', help: 'next pending request', on: ALL },
} as const satisfies Record<string, CardKeyRow>;

/** An action of a tool or plan card. */
export type CardAction = keyof typeof CARD_KEYS;

/** Rows the `?` help folds into the row before them (j/k, the scroll pages, ↓). */
const FOLDED: ReadonlySet<CardAction> = new Set([
  'prev_change',
  'scroll_left',
  'line_up',
  'page_up',
  'page_down',
  'top',
  'bottom',
  'queue_next',
]);

/** The row of `action` as a card of `kind` words it. */
function cardRow(action: CardAction, kind: CardKind): KeyRow {
  const row: CardKeyRow = CARD_KEYS[action];
  return { ...row, ...row.byKind?.[kind] };
}

/**
 * What a key means on a card of `kind`: its action, 'none' for keys that are no mistake (chords,
 * a bare modifier), or 'invalid'. Enter is the key most likely pressed by habit: it approves
 * nothing and counts as a mistake. `E` is a mistake where no file content is offered.
 */
export function cardKeyAction(
  id: KeyId,
  kind: CardKind,
  offers: ReadonlySet<CardOffer>,
): { kind: 'action'; action: CardAction } | { kind: 'none' } | { kind: 'invalid'; input: string } {
  const action = lookup<CardAction>(CARD_KEYS, id);
  if (action) {
    const row: CardKeyRow = CARD_KEYS[action];
    if (row.on.includes(kind) && !(row.offer === 'external_edit' && !offers.has('external_edit')))
      return { kind: 'action', action };
    return { kind: 'invalid', input: id };
  }
  if (id === 'enter') return { kind: 'invalid', input: '⏎' };
  return isMistake(id) ? { kind: 'invalid', input: id } : { kind: 'none' };
}

/** The card's footer: the keys it takes, `a` only when a scope is offered, `E` only with content. */
export function cardFooter(kind: CardKind, offers: ReadonlySet<CardOffer>): string {
  const actions = (Object.keys(CARD_KEYS) as CardAction[]).filter((a) => {
    const row: CardKeyRow = CARD_KEYS[a];
    return row.on.includes(kind) && (row.offer === undefined || offers.has(row.offer));
  });
  return footerLine(actions.map((a) => cardRow(a, kind)));
}

/** The card's `?` help: every key it takes. */
export function cardHelp(kind: CardKind): { keys: string; does: string }[] {
  const actions = (Object.keys(CARD_KEYS) as CardAction[]).filter(
    (a) => CARD_KEYS[a].on.includes(kind as never) && !FOLDED.has(a),
  );
  return helpRows(actions.map((a) => cardRow(a, kind)));
}

// ── The approval drawer: question cards (ask_user) ──────────────────────────────────────────────

/** What a key does on a question card while its options have the keys. */
export const QUESTION_KEYS = {
  option_up: { keys: ['up'], show: '↑/↓', help: 'pick an answer (last entry: type your own)' },
  option_down: { keys: ['down'], show: '↓', help: 'next answer' },
  answer: {
    keys: ['enter'],
    show: 'Enter',
    footer: 'answer',
    help: 'answer with the option under the cursor',
  },
  type: { keys: ['t'], show: 't', footer: 'type', help: 'type an answer' },
  decline: { keys: ['n', 'esc'], show: 'n/Esc', footer: 'decline', help: 'decline to answer' },
  cancel_task: { keys: ['c'], show: 'c', footer: 'cancel task', help: "cancel the agent's whole task" },
  pause: {
    keys: ['p'],
    show: 'p',
    help: 'pause this agent after this card (Ctrl+P or /go resumes)',
  },
  queue_next: { keys: ['tab'], show: 'Tab', footer: 'queue', help: 'pick another pending request' },
  queue_prev: { keys: ['shift+tab'], show: 'Shift+Tab', help: 'previous pending request' },
  help: { keys: ['?'], show: '?', footer: 'help', help: 'show these keys' },
} as const satisfies Record<string, KeyRow>;

/** An action of a question card. */
export type QuestionAction = keyof typeof QUESTION_KEYS;

/** The question card's help rows (↓ and Shift+Tab fold into ↑/↓ and Tab). */
export function questionHelp(): { keys: string; does: string }[] {
  const { option_down: _d, queue_prev: _p, ...shown } = QUESTION_KEYS;
  return helpRows(Object.values(shown));
}

/** The question card's footer. */
export const QUESTION_FOOTER = `↑/↓ ${footerLine(Object.values(QUESTION_KEYS))}`;

// ── The approval drawer: escalation cards (an agent stopped and asks for help) ──────────────────

/** What a key does on an escalation card. `r` opens the instruction field (ANSWER_KEYS). */
export const ESCALATION_KEYS = {
  retry: {
    keys: ['r'],
    show: 'r',
    footer: 'retry with an instruction',
    help: 'type an instruction; the agent retries with it (Enter sends, Esc back)',
  },
  take_over: {
    keys: ['t'],
    show: 't',
    footer: 'take over',
    help: 'take over: the agent pauses; run !command, /plan, write a note, then Ctrl+P or /go resumes',
  },
  skip: {
    keys: ['s'],
    show: 's',
    footer: 'skip step',
    help: 'skip the step: the agent goes on with the next one',
  },
  cancel_task: { keys: ['c'], show: 'c', footer: 'cancel task', help: "cancel the agent's whole task" },
  queue_next: { keys: ['tab'], show: 'Tab', footer: 'queue', help: 'pick another pending request' },
  queue_prev: { keys: ['shift+tab'], show: 'Shift+Tab', help: 'previous pending request' },
  help: { keys: ['?'], show: '?', footer: 'help', help: 'show these keys' },
} as const satisfies Record<string, KeyRow>;

/** An action of an escalation card. */
export type EscalationAction = keyof typeof ESCALATION_KEYS;

/** The escalation card's footer. */
export const ESCALATION_FOOTER = footerLine(Object.values(ESCALATION_KEYS));

/** The escalation card's help rows (Shift+Tab folds into Tab). */
export function escalationHelp(): { keys: string; does: string }[] {
  const { queue_prev: _p, ...shown } = ESCALATION_KEYS;
  return helpRows(Object.values(shown));
}

// ── The drawer's forms: each names its keys here, and its hint line is written from them ───────

/** The help view: any key closes it. */
export const HELP_CLOSE = 'any key closes the help';

/** Approve-all: choose a scope and minutes. */
export const GRANT_KEYS = {
  up: { keys: ['up'], show: '↑/↓', footer: 'scope', help: 'pick a scope' },
  down: { keys: ['down'], show: '↓', help: 'next scope' },
  more: { keys: ['+', '='], show: '+/-', footer: 'minutes', help: 'longer / shorter grant' },
  less: { keys: ['-'], show: '-', help: 'shorter grant' },
  grant: { keys: ['enter'], show: 'Enter', footer: 'grant', help: 'grant the scope' },
  back: { keys: ['esc'], show: 'Esc', footer: 'back', help: 'back to the card' },
} as const satisfies Record<string, KeyRow>;

/** "Don't ask again" (`A` on a card): the rule approve-all would grant, shown as JSON, saved to the file the person picks. */
export const SAVE_RULE_KEYS = {
  up: { keys: ['up'], show: '↑/↓', footer: 'rule', help: 'pick the rule to save' },
  down: { keys: ['down'], show: '↓', help: 'next rule' },
  project: {
    keys: ['p'],
    show: 'p',
    footer: 'save to the project',
    help: "approve, and append the rule to the project's .warden/policy.json",
  },
  user: {
    keys: ['u'],
    show: 'u',
    footer: 'save for you',
    help: 'approve, and append the rule to your own $WARDEN_HOME/policy.json',
  },
  back: { keys: ['esc'], show: 'Esc', footer: 'back', help: 'back to the card, nothing saved' },
} as const satisfies Record<string, KeyRow>;

/** The reject reason: one text field. */
export const REJECT_KEYS = {
  send: { keys: ['enter'], show: 'Enter', footer: 'sends', help: 'reject with the reason' },
  back: { keys: ['esc'], show: 'Esc', footer: 'back', help: 'back to the card' },
} as const satisfies Record<string, KeyRow>;

/** The free answer of a question card. */
export const ANSWER_KEYS = {
  send: { keys: ['enter'], show: 'Enter', footer: 'sends', help: 'send the answer' },
  back: {
    keys: ['esc'],
    show: 'Esc',
    footer: 'back to the options',
    help: 'back to the options; declines without options',
  },
  queue: { keys: ['tab', 'shift+tab'], show: 'Tab', help: 'pick another pending request' },
} as const satisfies Record<string, KeyRow>;

/** The JSON arguments editor (every other key edits). */
export const ARGS_EDITOR_KEYS = {
  save: {
    keys: ['ctrl+s'],
    show: 'Ctrl+S',
    footer: 'check and show',
    help: 'check the edit and show it on the card (y then runs it)',
  },
  cancel: { keys: ['esc'], show: 'Esc', footer: 'cancel', help: 'leave the editor, nothing sent' },
} as const satisfies Record<string, KeyRow>;

/** The plan's step editor (text keys edit the focused step). */
export const PLAN_EDITOR_KEYS = {
  up: { keys: ['up'], show: '↑/↓', footer: 'step', help: 'move between steps' },
  down: { keys: ['down'], show: '↓', help: 'next step' },
  next: {
    keys: ['enter'],
    show: 'Enter',
    footer: 'next (saves on the last)',
    help: 'next step; on the last, save',
  },
  add: { keys: ['ctrl+n'], show: 'Ctrl+N', footer: 'new step', help: 'add a step below' },
  save: { keys: ['ctrl+s'], show: 'Ctrl+S', footer: 'save', help: 'save and send the plan' },
  cancel: { keys: ['esc'], show: 'Esc', footer: 'cancel', help: 'leave the editor, nothing sent' },
} as const satisfies Record<string, KeyRow>;

// ── Panels ──────────────────────────────────────────────────────────────────────────────────────

/** The audit browser's list (↑/↓ PgUp/PgDn Home/End move the cursor: use-list-cursor). */
export const AUDIT_KEYS = {
  day_prev: { keys: ['left'], show: '←→', footer: 'day', help: 'previous / next day' },
  day_next: { keys: ['right'], show: '→', help: 'next day (not past today)' },
  move: { keys: ['up', 'down'], show: '↑↓', footer: 'move', help: 'move the cursor' },
  details: { keys: ['enter'], show: 'Enter', footer: 'details', help: 'the record under the cursor in full' },
  filter_tool: { keys: ['t'], show: 't', footer: 'tool', help: 'cycle the tool filter' },
  filter_outcome: { keys: ['o'], show: 'o', footer: 'outcome', help: 'cycle the outcome filter' },
  filter_approver: { keys: ['p'], show: 'p', footer: 'approver', help: 'cycle the approver filter' },
  filter_agent: { keys: ['g'], show: 'g', footer: 'agent', help: 'cycle the agent filter' },
  search: {
    keys: ['/'],
    show: '/',
    footer: 'search',
    help: 'search the records (Enter keeps it, Esc clears it)',
  },
  clear: { keys: ['x'], show: 'x', footer: 'clear', help: 'clear filters and search' },
  close: { keys: ['esc'], show: 'Esc', footer: 'close', help: 'close the browser' },
} as const satisfies Record<string, KeyRow>;

/** An action of the audit browser's list. */
export type AuditAction = keyof typeof AUDIT_KEYS;

/** The audit browser's detail view. */
export const AUDIT_DETAIL_KEYS = {
  scroll: { keys: ['up', 'down'], show: '↑↓', footer: 'scroll', help: 'scroll the record a line' },
  page: { keys: ['pgup', 'pgdn'], show: 'PgUp/PgDn', footer: 'page', help: 'scroll the record a page' },
  ends: {
    keys: ['home', 'end'],
    show: 'Home/End',
    footer: 'top/end',
    help: 'the top / the end of the record',
  },
  record: {
    keys: ['left', 'right'],
    show: '←→',
    footer: 'previous/next record',
    help: 'previous / next record',
  },
  back: { keys: ['esc', 'enter', 'q'], show: 'Esc', footer: 'back to the list', help: 'back to the list' },
} as const satisfies Record<string, KeyRow>;

/** The audit browser while its search field has the keys (Enter keeps the search: TextField). */
export const AUDIT_SEARCH_KEYS = {
  clear: { keys: ['esc'], show: 'Esc', help: 'clear the search and leave the field' },
} as const satisfies Record<string, KeyRow>;

/** Any panel's list cursor (use-list-cursor); the panels' footers show it as their ↑↓ row. */
export const LIST_KEYS = {
  up: { keys: ['up'], show: '↑↓', help: 'move the cursor' },
  down: { keys: ['down'], show: '↓', help: 'next row' },
  page_up: { keys: ['pgup'], show: 'PgUp', help: 'a page up' },
  page_down: { keys: ['pgdn'], show: 'PgDn', help: 'a page down' },
  top: { keys: ['home'], show: 'Home', help: 'the first row' },
  bottom: { keys: ['end'], show: 'End', help: 'the last row' },
} as const satisfies Record<string, KeyRow>;

/** An action of a list cursor. */
export type ListAction = keyof typeof LIST_KEYS;

/** /grants. `d` revokes too; not Backspace: Ink reports it as delete, and a stray one should not revoke. */
export const GRANTS_KEYS = {
  select: { keys: ['up', 'down'], show: '↑↓', footer: 'select', help: 'move the cursor (use-list-cursor)' },
  revoke: { keys: ['r', 'd'], show: 'r', footer: 'revoke', help: 'revoke the grant under the cursor' },
  save_project: {
    keys: ['p'],
    show: 'p',
    footer: 'save to project',
    help: 'save the grant as a rule of the project policy (shows the rule first)',
  },
  save_user: {
    keys: ['u'],
    show: 'u',
    footer: 'save to user',
    help: 'save the grant as a rule of the user policy (shows the rule first)',
  },
  close: { keys: ['esc', 'q'], show: 'Esc', footer: 'close', help: 'close the panel' },
} as const satisfies Record<string, KeyRow>;

/** An action of /grants. */
export type GrantsAction = keyof typeof GRANTS_KEYS;

/** /grants while a rule to save is shown: Enter writes it, Esc does not. */
export const GRANT_SAVE_KEYS = {
  save: { keys: ['enter'], show: 'Enter', footer: 'saves', help: 'write the rule to the policy file' },
  cancel: { keys: ['esc'], show: 'Esc', footer: 'cancels', help: 'back to the list, nothing written' },
} as const satisfies Record<string, KeyRow>;

/** An action of /grants' save confirmation. */
export type GrantSaveAction = keyof typeof GRANT_SAVE_KEYS;

/** /mcp. */
export const MCP_KEYS = {
  select: { keys: ['up', 'down'], show: '↑↓', footer: 'select', help: 'move the cursor (use-list-cursor)' },
  restart: { keys: ['r'], show: 'r', footer: 'restart', help: 'restart the server under the cursor' },
  close: { keys: ['esc', 'q'], show: 'Esc', footer: 'close', help: 'close the panel' },
} as const satisfies Record<string, KeyRow>;

/** An action of /mcp. */
export type McpAction = keyof typeof MCP_KEYS;

/** /resume: the saved sessions of this project. */
export const SESSIONS_KEYS = {
  select: { keys: ['up', 'down'], show: '↑↓', footer: 'select', help: 'move the cursor (use-list-cursor)' },
  resume: {
    keys: ['enter'],
    show: 'Enter',
    footer: 'resume',
    help: 'resume the session under the cursor (grants are not restored)',
  },
  close: { keys: ['esc', 'q'], show: 'Esc', footer: 'close', help: 'close the list' },
} as const satisfies Record<string, KeyRow>;

/** An action of /resume. */
export type SessionsAction = keyof typeof SESSIONS_KEYS;

/** /policy: read only. */
export const POLICY_KEYS = {
  close: { keys: ['esc', 'enter', 'q'], show: 'Esc', footer: 'closes', help: 'close the panel' },
} as const satisfies Record<string, KeyRow>;

/** /memory: read only. */
export const MEMORY_KEYS = {
  close: { keys: ['esc', 'enter', 'q'], show: 'Esc', footer: 'closes', help: 'close the panel' },
} as const satisfies Record<string, KeyRow>;

/** /help: read only. */
export const HELP_PANEL_KEYS = {
  close: { keys: ['esc', 'enter', 'q'], show: 'Esc', footer: 'closes', help: 'close the help' },
} as const satisfies Record<string, KeyRow>;

/** The project trust card: each answer sends trust_project. */
export const TRUST_KEYS = {
  trust: {
    keys: ['t'],
    show: 't',
    footer: 'trust these files',
    help: "trust the project's .warden files (recorded for exactly these contents)",
  },
  keep: { keys: ['n', 'esc'], show: 'n / Esc', footer: 'keep them held back', help: 'keep them held back' },
  up: {
    keys: ['up', 'k'],
    show: '↑/↓ PgUp/PgDn',
    help: 'scroll the whole list (when it does not fit, `t` opens it; trust only once its last line is shown)',
  },
  down: { keys: ['down', 'j'], show: '↓', help: 'scroll the whole list down' },
  page_up: { keys: ['pgup'], show: 'PgUp', help: 'scroll the whole list a page up' },
  page_down: { keys: ['pgdn'], show: 'PgDn', help: 'scroll the whole list a page down' },
} as const satisfies Record<string, KeyRow>;

/** An answer of the trust card. */
export type TrustAction = keyof typeof TRUST_KEYS;

/** The turn review card: what the turn changed, kept or reverted. */
export const REVIEW_KEYS = {
  up: { keys: ['up', 'k'], show: '↑/↓', footer: 'file', help: 'move between the files the turn changed' },
  down: { keys: ['down', 'j'], show: '↓', help: 'next file' },
  toggle: { keys: [' '], show: 'Space', footer: 'select', help: 'select or unselect the file to revert' },
  revert_selected: {
    keys: ['r'],
    show: 'r',
    footer: 'revert selected',
    help: 'revert the selected files (none selected: the one under the cursor); a card confirms it',
  },
  revert_all: {
    keys: ['u'],
    show: 'u',
    footer: 'revert the turn',
    help: 'revert every file the turn changed; a card confirms it',
  },
  keep: {
    keys: ['a', 'esc'],
    show: 'a / Esc',
    footer: 'keep all',
    help: 'keep every change and close the review',
  },
} as const satisfies Record<string, KeyRow>;

/** An action of the turn review card. */
export type ReviewKeyAction = keyof typeof REVIEW_KEYS;

/** The offer card: save a repeated approval as a rule, or an edit as a preference line. */
export const SUGGESTION_KEYS = {
  project: {
    keys: ['p', 'y'],
    show: 'p',
    footer: 'save to the project',
    help: "save the rule to the project's .warden/policy.json (a preference: append the line to AGENTS.md)",
  },
  user: { keys: ['u'], show: 'u', footer: 'save for you', help: 'save the rule to your own policy.json' },
  decline: {
    keys: ['n', 'esc'],
    show: 'n / Esc',
    footer: 'no, never offer it again',
    help: 'not saved; warden will not offer it again this session',
  },
} as const satisfies Record<string, KeyRow>;

/** An answer of the offer card. */
export type SuggestionAction = keyof typeof SUGGESTION_KEYS;

/** The /compact card: the model's summary, read before it replaces the conversation. */
export const COMPACT_KEYS = {
  accept: {
    keys: ['y'],
    show: 'y',
    footer: 'replace the conversation with it',
    help: 'accept the summary: it replaces the conversation (the system prompt stays; the transcript keeps its lines)',
  },
  decline: {
    keys: ['n', 'esc'],
    show: 'n / Esc',
    footer: 'keep the conversation',
    help: 'decline: the conversation stays as it is',
  },
  up: { keys: ['up', 'k'], show: '↑/↓', footer: 'scroll', help: 'scroll the summary' },
  down: { keys: ['down', 'j'], show: '↓', help: 'scroll the summary down' },
} as const satisfies Record<string, KeyRow>;

/** An action of the /compact card. */
export type CompactAction = keyof typeof COMPACT_KEYS;

/** A panel's footer: its table's rows, in order. */
export const PANEL_FOOTERS = {
  grants: footerLine(Object.values(GRANTS_KEYS)),
  grant_save: footerLine(Object.values(GRANT_SAVE_KEYS)),
  mcp: footerLine(Object.values(MCP_KEYS)),
  sessions: footerLine(Object.values(SESSIONS_KEYS)),
  policy: footerLine(Object.values(POLICY_KEYS)),
  memory: footerLine(Object.values(MEMORY_KEYS)),
  help: footerLine(Object.values(HELP_PANEL_KEYS)),
  trust: footerLine([TRUST_KEYS.trust, TRUST_KEYS.keep]),
  trust_more: footerLine([{ show: 't', footer: 'see the whole list' }, TRUST_KEYS.keep]),
  // The whole list's own footer: scrolling, and `t` that trusts only once its end was shown (TrustCard).
  trust_list: footerLine([
    { show: TRUST_KEYS.up.show, footer: 'scroll' },
    { show: 't', footer: 'trust (once the last line is shown)' },
    TRUST_KEYS.keep,
  ]),
  suggestion_rule: footerLine(Object.values(SUGGESTION_KEYS)),
  suggestion_preference: footerLine([
    { show: 'y', footer: 'write it to AGENTS.md' },
    SUGGESTION_KEYS.decline,
  ]),
  review: footerLine(Object.values(REVIEW_KEYS)),
  compact: footerLine(Object.values(COMPACT_KEYS)),
  audit: footerLine(Object.values(AUDIT_KEYS)),
  audit_detail: footerLine(Object.values(AUDIT_DETAIL_KEYS)),
} as const;

// ── The app ─────────────────────────────────────────────────────────────────────────────────────

/** Keys the app handles while no drawer or panel owns the keyboard (use-app-keys). */
export const APP_KEYS = {
  cancel_turn: { keys: ['esc'], show: 'Esc', help: 'cancel the running turn; close a panel' },
  cycle_mode: {
    keys: ['shift+tab'],
    show: 'Shift+Tab',
    help: 'cycle the mode (manual → auto-edit → plan → auto)',
  },
  toggle_sidebar: {
    keys: ['ctrl+t'],
    show: 'Ctrl+T',
    footer: 'audit',
    help: 'show / hide the audit trail sidebar (latest decisions)',
  },
  toggle_agents: { keys: ['ctrl+g'], show: 'Ctrl+G', help: 'collapse / expand the sub-agent group' },
  toggle_detail: {
    keys: ['ctrl+o'],
    show: 'Ctrl+O',
    help: "detailed transcript: every tool card with its whole output (again: each card's last lines)",
  },
  pause_all: {
    keys: ['ctrl+p'],
    show: 'Ctrl+P',
    footer: 'pause',
    help: 'pause every agent / resume them; while paused, !command runs as you, text is a note, /plan edits the plan',
  },
} as const satisfies Record<string, KeyRow>;

/** An app-wide action. */
export type AppAction = keyof typeof APP_KEYS;

/** Keys of the prompt (PromptInput; Enter is TextField's) and quitting (use-ctrl-c), listed in /help. */
export const PROMPT_KEYS = {
  send: { keys: ['enter'], show: 'Enter', footer: 'send', help: 'send the prompt (or run a /command)' },
  history_older: {
    keys: ['up'],
    show: '↑ / ↓',
    footer: 'history',
    help: 'previous / next submitted prompt',
  },
  history_newer: { keys: ['down'], show: '↓', help: 'next submitted prompt' },
  complete: { keys: ['tab'], show: 'Tab', footer: 'complete', help: 'complete a /command or its argument' },
  quit: {
    keys: ['ctrl+c'],
    show: 'Ctrl+C ×2',
    footer: 'quit',
    help: 'interrupt the running turn; when idle, quit (press twice within 2 s)',
  },
} as const satisfies Record<string, KeyRow>;

/** An action of the prompt. */
export type PromptAction = keyof typeof PROMPT_KEYS;

/** The confirm row Shift+Tab shows before switching into `auto` (nothing asks there). */
export const MODE_CONFIRM_KEYS = {
  confirm: { keys: ['y', 'enter'], show: 'y', footer: 'switch to auto', help: 'switch to auto mode' },
  keep: { keys: ['n', 'esc'], show: 'n/Esc', footer: 'keep', help: 'stay in the current mode' },
  skip: { keys: ['shift+tab'], show: 'Shift+Tab', footer: 'skip to manual', help: 'go on to manual mode' },
} as const satisfies Record<string, KeyRow>;

/** An action of the auto-mode confirm row. */
export type ModeConfirmAction = keyof typeof MODE_CONFIRM_KEYS;

/** The line under an empty prompt: its keys, where /help is, the audit sidebar and quitting. */
export const PROMPT_HINT = [
  footerLine([PROMPT_KEYS.send, PROMPT_KEYS.history_older, PROMPT_KEYS.complete]),
  '/help',
  footerLine([APP_KEYS.toggle_sidebar, PROMPT_KEYS.quit]),
].join(' · ');

/**
 * Ctrl+<letter> chords the app handles itself. Ink reports Ctrl+T as input "t" with key.ctrl;
 * TextField never types the letter of a chord, and keeps Ctrl+A/E/U/W for editing.
 */
export const CHORDS = {
  /** Audit sidebar on/off. */
  sidebar: APP_KEYS.toggle_sidebar.keys[0].slice('ctrl+'.length),
  /** Sub-agent group collapsed/expanded. */
  agents: APP_KEYS.toggle_agents.keys[0].slice('ctrl+'.length),
  /** Detailed transcript on/off. */
  detail: APP_KEYS.toggle_detail.keys[0].slice('ctrl+'.length),
  /** Pause / resume every agent. */
  pause: APP_KEYS.pause_all.keys[0].slice('ctrl+'.length),
} as const;

export type HelpRow = { keys: string; does: string };

/** /help's key table, in the order a newcomer needs them. */
export const KEY_HELP: HelpRow[] = helpRows([
  PROMPT_KEYS.send,
  PROMPT_KEYS.history_older,
  PROMPT_KEYS.complete,
  APP_KEYS.cycle_mode,
  APP_KEYS.cancel_turn,
  APP_KEYS.toggle_sidebar,
  APP_KEYS.toggle_agents,
  APP_KEYS.toggle_detail,
  APP_KEYS.pause_all,
  PROMPT_KEYS.quit,
]);
