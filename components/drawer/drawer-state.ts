/**
 * The approval drawer's state and everything a key or an event does to it, as one pure reducer:
 * the queue cursor, the card's mode, the locks of sent decisions, the grace window, scroll, full
 * screen and the footer message. No React: the drawer component keeps the state, feeds it keys and
 * events, and runs the effects it returns (send to the core, open $EDITOR, timers).
 * Over 400 lines on purpose: one reducer is the one owner of the drawer's state (STYLE: state has
 * one owner); splitting its cases across files would bring back the scattered key paths it replaced.
 */
import type { ApprovalRequest, CoreCommand, Decision } from '../../src/protocol';
import { type CardAction, type CardKind, CARD_KEYS, cardKeyAction, type KeyId, lookup } from '../keys/keymap';
import {
  type CardIntent,
  cardKeysLine,
  cardKind,
  cardOffers,
  externalEditField,
  type TableKeys,
} from './card-kinds';
import { JUMP_LEAD } from './preview/diff-fold';
import type { DiffLayout } from './preview/diff-rows';

/** How long keys are ignored after the card under the cursor changed by itself. */
export const GRACE_MS = 400;

/** What owns the card's keys: its key map, or one of its forms. */
export type CardMode = 'keys' | 'grant' | 'save_rule' | 'reject' | 'edit' | 'plan_edit' | 'help';

/** Where "don't ask again" saves the rule: the project's policy file, or the person's own. */
export type SaveTarget = 'project' | 'user';

export type FooterMessage = { text: string; tone: 'hint' | 'warn' | 'info' };
export type InvalidCount = { count: number; limit: number };
export type ScrollMove = 'line-up' | 'line-down' | 'page-up' | 'page-down' | 'top' | 'bottom';
export type ExternalEditResult =
  | { kind: 'changed'; content: string }
  | { kind: 'unchanged' }
  | { kind: 'failed'; message: string };

/** The card under the cursor; replaced whenever another request comes under it. */
export type CardState = {
  id: string | undefined;
  mode: CardMode;
  /** Offset moved by keys; undefined: where the preview starts (a diff's first change). */
  scroll?: number;
  /** Question cards: the option under the cursor; options.length is "type an answer". */
  option: number;
  /** Question cards: the free-answer field is open; escalation cards: the instruction field is. */
  typing: boolean;
  /** Diff cards: the change a jump went to (undefined: the one in view); see diff-fold.ts. */
  change?: number;
  /** Diff cards: every unchanged line shown instead of folded runs. */
  unfolded?: boolean;
  /** Diff cards: cells long lines are scrolled sideways. */
  shift?: number;
  /** A high-risk tool card whose first `y` was pressed: the next `y` runs it, any other key disarms it. */
  armed?: boolean;
};

export type DrawerState = {
  /** The queue as of the last sync. */
  pending: readonly ApprovalRequest[];
  /** The request under the cursor, by id, so a shifting list never moves it. */
  cursorId?: string;
  /** Where the cursor was; when its request leaves, the cursor stays at this position (clamped). */
  index: number;
  card: CardState;
  /** Request id → what it looked like when its decision was sent; locked until it changes or leaves. */
  locks: Readonly<Record<string, string>>;
  /** The core's count of invalid keys per request. */
  invalid: Readonly<Record<string, InvalidCount>>;
  graceUntil: number;
  /** True while keys are being ignored (the footer shows "keys paused"). */
  waiting: boolean;
  /** A key changed what is on screen and the next commit has not drawn it yet: keys are dropped. */
  settling: boolean;
  fullScreen: boolean;
  layout: DiffLayout;
  message?: { id: string } & FooterMessage;
};

/** What the drawer measured of the card in view, for keys that depend on it. */
export type CardView = {
  width: number;
  total: number;
  viewport: number;
  initial: number;
  /** Diff cards: where each change starts (rows), the change in view, and how far lines scroll sideways. */
  diff?: { changes: readonly number[]; change: number; shiftMax: number; shiftStep: number };
};

export type DrawerAction =
  | { type: 'sync'; pending: readonly ApprovalRequest[]; now: number }
  | { type: 'painted' }
  | { type: 'grace_elapsed' }
  | { type: 'invalid_count'; requestId: string; count: number; limit: number }
  /** A key for the card's key map (the gate already let it through). */
  | { type: 'key'; id: KeyId; view: CardView }
  /** From a form: send this decision for the card under the cursor (`save`: and save its scope as a rule there). */
  | { type: 'decide'; decision: Decision; save?: SaveTarget }
  /** From a form: Esc — back to the card's keys (a question without options declines). */
  | { type: 'back' }
  | { type: 'queue'; delta: 1 | -1 }
  | { type: 'external_edit_done'; id: string; field: string; result: ExternalEditResult };

export type DrawerEffect =
  | { kind: 'send'; command: CoreCommand }
  | { kind: 'full_screen'; on: boolean }
  /** (Re)start the timer that ends the "keys paused" hint after `ms`. */
  | { kind: 'grace_timer'; ms: number }
  | { kind: 'grace_cancel' }
  | { kind: 'external_edit'; id: string; field: string; content: string; fileName: string };

export type DrawerStep = { state: DrawerState; effects: DrawerEffect[] };

/** A drawer with nothing in it yet. */
export function initialDrawerState(): DrawerState {
  return {
    pending: [],
    index: 0,
    card: { id: undefined, mode: 'keys', option: 0, typing: false },
    locks: {},
    invalid: {},
    graceUntil: 0,
    waiting: false,
    settling: false,
    fullScreen: false,
    layout: 'split',
  };
}

/** The request under the cursor. */
export function selected(state: DrawerState): ApprovalRequest | undefined {
  return state.pending[state.index];
}

/** What must change for a still-pending request to take a new decision (a refused edit). */
function signature(request: ApprovalRequest): string {
  return `${request.editError ?? ''}\u0000${request.revision ?? ''}`;
}

/** True while a decision for `request` is on its way. */
export function isDeciding(state: DrawerState, request: ApprovalRequest | undefined): boolean {
  return request !== undefined && state.locks[request.id] === signature(request);
}

export { cardKeysLine, cardOffers, externalEditField } from './card-kinds';

function freshCard(request: ApprovalRequest | undefined): CardState {
  return {
    id: request?.id,
    mode: 'keys',
    option: 0,
    typing: request ? cardKind(request).typingAtStart?.(request.preview) === true : false,
  };
}

/** A scroll offset kept inside [0, total - viewport]; pages keep one row of overlap. */
export function scrolled(from: number, move: ScrollMove, total: number, viewport: number): number {
  const max = Math.max(0, total - Math.max(1, viewport));
  const clamp = (n: number) => Math.max(0, Math.min(n, max));
  const page = Math.max(1, viewport - 1);
  const at = clamp(from);
  if (move === 'line-up') return clamp(at - 1);
  if (move === 'line-down') return clamp(at + 1);
  if (move === 'page-up') return clamp(at - page);
  if (move === 'page-down') return clamp(at + page);
  return move === 'top' ? 0 : max;
}

/**
 * Whether a key may act now. Keys wait while the screen settles and inside the grace window; a
 * refused key re-shows "keys paused" for the rest of the window. The injected clock may run ahead
 * of the hint's timer: a key that acts ends the hint.
 */
export function gateKey(state: DrawerState, now: number): DrawerStep & { allowed: boolean } {
  if (state.settling) return { allowed: false, state, effects: [] };
  const left = state.graceUntil - now;
  if (left <= 0) {
    if (!state.waiting) return { allowed: true, state, effects: [] };
    return { allowed: true, state: { ...state, waiting: false }, effects: [{ kind: 'grace_cancel' }] };
  }
  return { allowed: false, state: { ...state, waiting: true }, effects: [{ kind: 'grace_timer', ms: left }] };
}

const same = (state: DrawerState): DrawerStep => ({ state, effects: [] });

function withCard(state: DrawerState, patch: Partial<CardState>): DrawerStep {
  // Anything that changes what the card shows waits for the screen before the next key.
  return same({ ...state, card: { ...state.card, ...patch }, settling: true });
}

function say(state: DrawerState, text: string, tone: FooterMessage['tone']): DrawerStep {
  const request = selected(state);
  return same(request ? { ...state, message: { id: request.id, text, tone } } : state);
}

function decide(state: DrawerState, decision: Decision, save?: SaveTarget): DrawerStep {
  const request = selected(state);
  if (!request || isDeciding(state, request)) return same(state);
  // A saved edit closes its editor; the card stays locked until the request leaves or changes.
  const back = decision.kind === 'edit' || decision.kind === 'approve_plan';
  const card = back && state.card.mode !== 'keys' ? { ...state.card, mode: 'keys' as const } : state.card;
  return {
    state: {
      ...state,
      card,
      settling: state.settling || card !== state.card,
      locks: { ...state.locks, [request.id]: signature(request) },
      message: undefined,
    },
    effects: [
      { kind: 'send', command: { type: 'decide', id: request.id, decision, ...(save ? { save } : {}) } },
    ],
  };
}

function invalidKey(state: DrawerState, input: string): DrawerStep {
  const request = selected(state);
  if (!request) return same(state);
  const step = say(state, `unknown key ${JSON.stringify(input)} · ${cardKeysLine(request)}`, 'hint');
  return {
    state: step.state,
    effects: [{ kind: 'send', command: { type: 'report_invalid_input', id: request.id } }],
  };
}

function queue(state: DrawerState, delta: 1 | -1): DrawerStep {
  const target = state.pending[state.index + delta];
  if (!target) return same(state);
  // Moved on purpose: no grace window, but the next key waits until the new card is drawn.
  return same({
    ...state,
    cursorId: target.id,
    index: state.index + delta,
    card: freshCard(target),
    settling: true,
  });
}

function sync(state: DrawerState, pending: readonly ApprovalRequest[], now: number): DrawerStep {
  let index = pending.findIndex((r) => r.id === state.cursorId);
  if (index < 0) index = Math.max(0, Math.min(state.index, pending.length - 1));
  const request = pending[index];
  const ids = new Set(pending.map((r) => r.id));
  const keep = <T>(record: Readonly<Record<string, T>>) =>
    Object.fromEntries(Object.entries(record).filter(([id]) => ids.has(id)));
  const effects: DrawerEffect[] = [];
  let next: DrawerState = {
    ...state,
    pending,
    index,
    cursorId: request?.id,
    locks: keep(state.locks),
    invalid: keep(state.invalid),
  };
  if (request?.id !== state.card.id) {
    next = { ...next, card: freshCard(request) };
    // The card changed by itself (resolved, removed, or the drawer just appeared): a key meant
    // for the old card must not land on this one.
    if (request) {
      next = { ...next, graceUntil: now + GRACE_MS, waiting: true };
      effects.push({ kind: 'grace_timer', ms: GRACE_MS });
    }
  }
  return { state: next, effects };
}

/**
 * The state a frame for `pending` shows: the sync the next commit applies (without its effects),
 * so the first frame of a new card already shows its grace window ("keys paused"), never the old
 * card or an approve hint while keys are ignored. The component still dispatches the sync.
 */
export function frameState(
  state: DrawerState,
  pending: readonly ApprovalRequest[],
  now: number,
): DrawerState {
  return state.pending === pending ? state : sync(state, pending, now).state;
}

const SCROLL: Partial<Record<CardAction, ScrollMove>> = {
  line_up: 'line-up',
  line_down: 'line-down',
  page_up: 'page-up',
  page_down: 'page-down',
  top: 'top',
  bottom: 'bottom',
};

function cardKey(
  state: DrawerState,
  request: ApprovalRequest,
  keys: TableKeys<ApprovalRequest['preview']>,
  id: KeyId,
  view: CardView,
): DrawerStep {
  const meaning = cardKeyAction(id, keys.table, cardOffers(request));
  if (meaning.kind === 'none') return same(state);
  if (meaning.kind === 'invalid') return invalidKey(state, meaning.input);
  const p = request.preview;
  const action = meaning.action;
  const move = SCROLL[action];
  if (move)
    return same({
      ...state,
      card: {
        ...state.card,
        change: undefined,
        scroll: scrolled(state.card.scroll ?? view.initial, move, view.total, view.viewport),
      },
    });
  const diffStep = diffKey(state, action, view);
  if (diffStep) return diffStep;
  switch (action) {
    case 'approve':
      // An armed high-risk card's second `y` is the confirmation the core asks for.
      return decide(
        state,
        keys.approve?.(p) ??
          (state.card.armed ? { kind: 'approve', confirmHigh: true } : { kind: 'approve' }),
      );
    case 'approve_all':
      return withCard(state, { mode: 'grant' });
    case 'always':
      return withCard(state, { mode: 'save_rule' });
    case 'reject':
      return withCard(state, { mode: 'reject' });
    case 'skip':
      return decide(state, { kind: 'skip' });
    case 'edit':
      return withCard(state, { mode: keys.editForm ?? 'edit' });
    case 'external_edit': {
      const field = externalEditField(request);
      if (p.kind !== 'diff' || !field) return say(state, '$EDITOR is offered only for file writes', 'info');
      return {
        state,
        effects: [{ kind: 'external_edit', id: request.id, field, content: p.after, fileName: p.path }],
      };
    }
    case 'cancel_task':
      return decide(state, { kind: 'cancel_task' });
    case 'pause':
      return pauseAgent(state, request);
    case 'cancel_turn':
      return { state, effects: [{ kind: 'send', command: { type: 'cancel' } }] };
    case 'help':
      return withCard(state, { mode: 'help' });
    case 'toggle_layout': {
      const next = { ...state, layout: state.layout === 'split' ? ('unified' as const) : ('split' as const) };
      return view.width < 100
        ? say(next, 'side by side needs 100 columns; showing unified', 'info')
        : same(next);
    }
    case 'toggle_full_screen':
      return {
        state: { ...state, fullScreen: !state.fullScreen },
        effects: [{ kind: 'full_screen', on: !state.fullScreen }],
      };
    case 'queue_prev':
      return queue(state, -1);
    case 'queue_next':
      return queue(state, 1);
    // Taken above (SCROLL, diffKey); listed so that a new card action without a handler does not compile.
    case 'line_up':
    case 'line_down':
    case 'page_up':
    case 'page_down':
    case 'top':
    case 'bottom':
    case 'next_change':
    case 'prev_change':
    case 'toggle_folds':
    case 'scroll_right':
    case 'scroll_left':
      return same(state);
  }
}

/** The change after (or before) the one a jump would put at `offset`: JUMP_LEAD rows keep its context above it. */
function nearby(changes: readonly number[], offset: number, next: boolean): number {
  if (next) {
    const k = changes.findIndex((c) => c > offset + JUMP_LEAD);
    return k < 0 ? changes.length : k;
  }
  let k = -1;
  for (let i = 0; i < changes.length; i++) if ((changes[i] ?? 0) < offset + JUMP_LEAD) k = i;
  return k;
}

/** The diff card's own keys: jump between changes, fold or unfold, scroll long lines sideways. */
function diffKey(state: DrawerState, action: CardAction, view: CardView): DrawerStep | undefined {
  const d = view.diff;
  if (!d) return undefined;
  const card = state.card;
  switch (action) {
    case 'next_change':
    case 'prev_change': {
      const next = action === 'next_change';
      const target =
        card.change !== undefined
          ? card.change + (next ? 1 : -1)
          : nearby(d.changes, card.scroll ?? view.initial, next);
      if (d.changes.length === 0) return say(state, 'no changes', 'info');
      if (target < 0) return say(state, 'this is the first change', 'info');
      if (target >= d.changes.length) return say(state, 'this is the last change', 'info');
      return same({ ...state, card: { ...card, change: target, scroll: undefined } });
    }
    case 'toggle_folds':
      // The change in view stays in view.
      return withCard(state, { unfolded: !card.unfolded, change: d.change, scroll: undefined });
    case 'scroll_right':
    case 'scroll_left': {
      const delta = action === 'scroll_right' ? d.shiftStep : -d.shiftStep;
      const shift = Math.max(0, Math.min(d.shiftMax, (card.shift ?? 0) + delta));
      return shift === (card.shift ?? 0) ? same(state) : same({ ...state, card: { ...card, shift } });
    }
    default:
      return undefined;
  }
}

/** `p`: pause the requesting agent (the card stays; its call may still be decided). */
function pauseAgent(state: DrawerState, request: ApprovalRequest): DrawerStep {
  const step = say(state, `pausing ${request.agentName} · Ctrl+P or /go resumes`, 'info');
  return {
    state: step.state,
    effects: [{ kind: 'send', command: { type: 'pause', agentId: request.agentId } }],
  };
}

/** Carries out what a key on a card with keys of its own means. */
function applyIntent(state: DrawerState, request: ApprovalRequest, intent: CardIntent): DrawerStep {
  switch (intent.do) {
    case 'nothing':
      return same(state);
    case 'mistake':
      return invalidKey(state, intent.input);
    case 'decide':
      return decide(state, intent.decision);
    case 'show':
      return withCard(state, intent.patch);
    case 'move':
      return same({ ...state, card: { ...state.card, ...intent.patch } });
    case 'queue':
      return queue(state, intent.delta);
    case 'pause':
      return pauseAgent(state, request);
  }
}

function key(state: DrawerState, id: KeyId, view: CardView): DrawerStep {
  const request = selected(state);
  if (!request || isDeciding(state, request)) return same(state);
  // The help view: any key closes it.
  if (state.card.mode === 'help') return withCard(state, { mode: 'keys' });
  // A form owns the keys; it reports what they mean through its own actions.
  if (state.card.mode !== 'keys') return same(state);
  const keys = cardKind(request).keys;
  if ('own' in keys)
    return state.card.typing
      ? same(state)
      : applyIntent(state, request, keys.own.press(request.preview, state.card, id));
  const high = keys.confirmsHighRisk ? highRiskKey(state, request, keys.table, id) : { state };
  return high.step ?? cardKey(high.state, request, keys, id, view);
}

/** What the footer says after the first `y` on a high-risk card. */
export const HIGH_RISK_CONFIRM =
  'HIGH RISK · press y again to run this high-risk call · any other key cancels';

/**
 * High risk asks harder: on a high-risk tool card the first `y` only arms the card
 * (the footer says so, and the next key waits until that is on screen, so a held or doubled key
 * cannot confirm unseen); the second `y` approves; any other key disarms it first.
 */
function highRiskKey(
  state: DrawerState,
  request: ApprovalRequest,
  kind: CardKind,
  id: KeyId,
): { step?: DrawerStep; state: DrawerState } {
  if (request.risk.level !== 'high') return { state };
  const meaning = cardKeyAction(id, kind, cardOffers(request));
  const approve = meaning.kind === 'action' && meaning.action === 'approve';
  if (approve && !state.card.armed) {
    const armed = withCard(state, { armed: true }).state;
    return {
      step: same({ ...armed, message: { id: request.id, text: HIGH_RISK_CONFIRM, tone: 'warn' } }),
      state,
    };
  }
  if (!approve && state.card.armed && meaning.kind !== 'none')
    return { state: { ...state, card: { ...state.card, armed: false }, message: undefined } };
  return { state };
}

/** Moves that may repeat within one chunk of input: scrolling and jumping, never a decision. */
const REPEATABLE: ReadonlySet<CardAction> = new Set(['line_down', 'line_up', 'next_change', 'prev_change']);

/** How many presses of one moving key `id` holds ("]]" → 2), or 0 when it is not such a run. */
function repeatedMove(id: KeyId): number {
  const first = id.charAt(0);
  if (id.length < 2 || id !== first.repeat(id.length)) return 0;
  const action = lookup<CardAction>(CARD_KEYS, first);
  return action && REPEATABLE.has(action) ? id.length : 0;
}

/** Applies one action. Contract: at most one `decide` is sent per request until it changes or leaves. */
export function reduceDrawer(state: DrawerState, action: DrawerAction): DrawerStep {
  switch (action.type) {
    case 'sync':
      return sync(state, action.pending, action.now);
    case 'painted':
      return same(state.settling ? { ...state, settling: false } : state);
    case 'grace_elapsed':
      // What the person sees is what counts: once the hint is gone, keys act.
      return same({ ...state, graceUntil: 0, waiting: false });
    case 'invalid_count':
      return same({
        ...state,
        invalid: { ...state.invalid, [action.requestId]: { count: action.count, limit: action.limit } },
      });
    case 'key': {
      // A key held down or pressed fast can reach us as one chunk ("]]", "jj"): each is a press.
      const times = repeatedMove(action.id);
      if (times === 0) return key(state, action.id, action.view);
      let next = state;
      for (let i = 0; i < times; i++) next = key(next, action.id.charAt(0), action.view).state;
      return same(next);
    }
    case 'decide':
      return decide(state, action.decision, action.save);
    case 'back': {
      const request = selected(state);
      const keys = request && cardKind(request).keys;
      if (request && keys && 'own' in keys && state.card.mode === 'keys' && state.card.typing)
        return applyIntent(state, request, keys.own.back(request.preview));
      return state.card.mode === 'keys' ? same(state) : withCard(state, { mode: 'keys' });
    }
    case 'queue':
      return queue(state, action.delta);
    case 'external_edit_done': {
      const request = selected(state);
      if (request?.id !== action.id) return same(state);
      const r = action.result;
      if (r.kind === 'failed') return say(state, `editor failed: ${r.message}`, 'info');
      if (r.kind === 'unchanged') return say(state, 'editor closed without changes; nothing sent', 'info');
      // review: the card shows the edited call's diff and waits for one more approve before it runs.
      return decide(state, {
        kind: 'edit',
        args: { ...(request.args as Record<string, unknown>), [action.field]: r.content },
        review: true,
      });
    }
  }
}
