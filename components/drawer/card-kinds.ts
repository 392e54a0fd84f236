/**
 * Every kind of approval card and what the drawer knows of it, pure: its one-line summary, the rows
 * its body spends on headers, its scrolling lines, whether it offers approve-all, and its keys —
 * either the shared card key map (keymap.ts, by `CardKind`) or keys of its own, answered with an
 * intent the reducer applies. A new kind is one entry here plus its view (preview/ApprovalPreview.tsx);
 * the compiler refuses a preview kind that has neither.
 */
import type { ApprovalPreview, ApprovalRequest, Decision } from '../../src/protocol';
import { compactJson } from '../../src/text/json';
import { nameLine } from '../../src/text/wrap';
import {
  type CardKind,
  type CardOffer,
  cardFooter,
  cardHelp,
  ESCALATION_FOOTER,
  ESCALATION_KEYS,
  type EscalationAction,
  escalationHelp,
  isMistake,
  type KeyId,
  lookup,
  QUESTION_FOOTER,
  QUESTION_KEYS,
  type QuestionAction,
  questionHelp,
} from '../keys/keymap';
import {
  argsPreviewLines,
  commandPreviewLines,
  type PreviewLine,
  planPreviewLines,
} from './preview/approval-lines';
import { ESCALATION_WHY } from './preview/escalation-lines';

type Kind = ApprovalPreview['kind'];
type PreviewOf<K extends Kind> = Extract<ApprovalPreview, { kind: K }>;

/** What a card's own keys change of its state: the option under the cursor, the text field, help. */
export type CardPatch = { option?: number; typing?: boolean; mode?: 'help' };

/** What a key on a card with keys of its own means; the drawer's reducer carries it out. */
export type CardIntent =
  | { do: 'nothing' }
  /** An unknown key: it counts as a mistake. */
  | { do: 'mistake'; input: string }
  | { do: 'decide'; decision: Decision }
  /** Changes what the card shows (the next key waits until it is drawn). */
  | { do: 'show'; patch: CardPatch }
  /** Moves within what is shown. */
  | { do: 'move'; patch: CardPatch }
  | { do: 'queue'; delta: 1 | -1 }
  /** Pauses the requesting agent. */
  | { do: 'pause' };

/** Keys of a card's own: its footer, its `?` rows, what a key and Esc (while typing) mean. */
export type OwnKeys<P> = {
  footer: string;
  help(): { keys: string; does: string }[];
  press(preview: P, card: { option: number }, id: KeyId): CardIntent;
  /** Esc while the card's text field is open. */
  back(preview: P): CardIntent;
};

/** The card key map's keys (approve, all, reject, skip, edit …) as a card of `table` words them. */
export type TableKeys<P> = {
  table: CardKind;
  /** What `y` sends; `approve` when absent. */
  approve?(preview: P): Decision;
  /** The form `e` opens; the argument editor when absent. */
  editForm?: 'plan_edit';
  /** A high-risk card's first `y` only arms it; the second runs the call. */
  confirmsHighRisk?: true;
};

export type CardKindSpec<P> = {
  /** The call in one line ("what" row, the queue). */
  what(preview: P, request: ApprovalRequest): string;
  /** Rows the body spends on headers and counts. */
  chrome: number;
  /** The body's prepared lines, when it scrolls lines (diffs have their own model; forms none). */
  lines?(preview: P, request: ApprovalRequest, width: number): PreviewLine[];
  /** The card lists the approve-all scopes it offers (the "all" row). */
  listsGrants: boolean;
  /** What the reject form says is rejected; `this <tool> call` when absent. */
  rejectSubject?: string;
  /** The card opens with its text field taking the keys. */
  typingAtStart?(preview: P): boolean;
  keys: TableKeys<P> | { own: OwnKeys<P> };
};

const TOOL_CARD = { listsGrants: true } as const;

export const CARD_KINDS: { [K in Kind]: CardKindSpec<PreviewOf<K>> } = {
  diff: {
    ...TOOL_CARD,
    what: (p) => nameLine(p.path),
    chrome: 2,
    keys: { table: 'diff', confirmsHighRisk: true },
  },
  command: {
    ...TOOL_CARD,
    what: (p) => p.command,
    chrome: 2,
    lines: (p, _request, width) => commandPreviewLines(p, width),
    keys: { table: 'command', confirmsHighRisk: true },
  },
  json: {
    ...TOOL_CARD,
    what: (_p, request) => compactJson(request.args),
    chrome: 1,
    lines: (_p, request, width) => argsPreviewLines(request, width),
    keys: { table: 'json', confirmsHighRisk: true },
  },
  plan: {
    what: (p) => p.title || `${p.steps.length} steps`,
    chrome: 2,
    lines: (p, _request, width) => planPreviewLines(p, width),
    listsGrants: false,
    rejectSubject: 'the plan',
    keys: {
      table: 'plan',
      approve: (p) => ({ kind: 'approve_plan', steps: p.steps }),
      editForm: 'plan_edit',
    },
  },
  question: {
    what: (p) => p.question,
    chrome: 0,
    listsGrants: false,
    typingAtStart: (p) => !(p.options ?? []).length,
    keys: {
      own: {
        footer: QUESTION_FOOTER,
        help: questionHelp,
        press: (p, card, id) => questionKey(p.options ?? [], card.option, id),
        // A question without options has nothing to go back to: Esc declines it.
        back: (p) =>
          (p.options ?? []).length
            ? { do: 'show', patch: { typing: false } }
            : { do: 'decide', decision: { kind: 'reject' } },
      },
    },
  },
  escalation: {
    ...TOOL_CARD,
    what: (p) => `stopped: ${ESCALATION_WHY[p.trigger]}`,
    chrome: 0,
    keys: {
      own: {
        footer: ESCALATION_FOOTER,
        help: escalationHelp,
        press: (_p, _card, id) => escalationKey(id),
        back: () => ({ do: 'show', patch: { typing: false } }),
      },
    },
  },
};

/** The spec of a request's card kind, typed for its preview. */
export function cardKind(request: ApprovalRequest): CardKindSpec<ApprovalPreview> {
  return CARD_KINDS[request.preview.kind] as CardKindSpec<ApprovalPreview>;
}

/** The string argument holding the proposed file content, when there is one to open in $EDITOR. */
export function externalEditField(request: ApprovalRequest): string | undefined {
  const p = request.preview;
  const args = request.args;
  if (p.kind !== 'diff' || typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  return Object.entries(args).find(([, v]) => v === p.after)?.[0];
}

/** What the card offers beyond its fixed keys: scopes to grant, content for $EDITOR. */
export function cardOffers(request: ApprovalRequest): ReadonlySet<CardOffer> {
  const offers = new Set<CardOffer>();
  if (request.grantOptions.length > 0) offers.add('grants');
  if (externalEditField(request) !== undefined) offers.add('external_edit');
  return offers;
}

/** The keys line of a card in its key map (also the hint after an unknown key). */
export function cardKeysLine(request: ApprovalRequest): string {
  const keys = cardKind(request).keys;
  return 'own' in keys ? keys.own.footer : cardFooter(keys.table, cardOffers(request));
}

/** The `?` help rows of a card kind, from the key map its keys are handled by. */
export function cardHelpRows(kind: Kind): { keys: string; does: string }[] {
  const keys = CARD_KINDS[kind].keys;
  return 'own' in keys ? keys.own.help() : cardHelp(keys.table);
}

function questionKey(options: readonly string[], option: number, id: KeyId): CardIntent {
  const action = lookup<QuestionAction>(QUESTION_KEYS, id);
  switch (action) {
    case 'option_up':
      return { do: 'move', patch: { option: Math.max(0, option - 1) } };
    case 'option_down':
      return { do: 'move', patch: { option: Math.min(options.length, option + 1) } };
    case 'answer': {
      const chosen = options[option];
      return chosen === undefined
        ? { do: 'show', patch: { typing: true } }
        : { do: 'decide', decision: { kind: 'answer', text: chosen } };
    }
    case 'type':
      return { do: 'show', patch: { typing: true } };
    case 'decline':
      return { do: 'decide', decision: { kind: 'reject' } };
    case 'cancel_task':
      return { do: 'decide', decision: { kind: 'cancel_task' } };
    case 'pause':
      return { do: 'pause' };
    default:
      return sharedIntent(action, id);
  }
}

/** An escalation card's keys: retry with an instruction, take over, skip the step, cancel the task. */
function escalationKey(id: KeyId): CardIntent {
  const action = lookup<EscalationAction>(ESCALATION_KEYS, id);
  switch (action) {
    case 'retry':
      return { do: 'show', patch: { typing: true } };
    case 'take_over':
      return { do: 'decide', decision: { kind: 'escalation', choice: 'take_over' } };
    case 'skip':
      return { do: 'decide', decision: { kind: 'skip' } };
    case 'cancel_task':
      return { do: 'decide', decision: { kind: 'cancel_task' } };
    default:
      return sharedIntent(action, id);
  }
}

/** The keys every answering card shares: help, moving in the queue, and a key that means nothing here. */
function sharedIntent(action: 'help' | 'queue_next' | 'queue_prev' | undefined, id: KeyId): CardIntent {
  if (action === 'help') return { do: 'show', patch: { mode: 'help' } };
  if (action === 'queue_next') return { do: 'queue', delta: 1 };
  if (action === 'queue_prev') return { do: 'queue', delta: -1 };
  return isMistake(id) ? { do: 'mistake', input: id } : { do: 'nothing' };
}
