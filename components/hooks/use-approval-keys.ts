import type { Key } from 'ink';
import { useApprovalInput } from './use-approval-input';
import type { ScrollMove } from './use-approval-scroll';

/** Which key map a card uses; question cards have their own form. */
export type ApprovalKeyKind = 'diff' | 'command' | 'json' | 'plan';

export type ApprovalKeyAction =
  | { kind: 'approve' }
  | { kind: 'approve_all' }
  | { kind: 'reject' }
  | { kind: 'skip' }
  | { kind: 'edit' }
  | { kind: 'external_edit' }
  | { kind: 'cancel_task' }
  /** Esc on a card: stop the whole turn (every pending request of it ends as cancelled). */
  | { kind: 'cancel_turn' }
  | { kind: 'help' }
  | { kind: 'queue'; delta: 1 | -1 }
  | { kind: 'scroll'; move: ScrollMove }
  | { kind: 'toggle_layout' }
  | { kind: 'toggle_full_screen' }
  /** Keys that mean nothing here but are not mistakes (Esc, Ctrl/Alt chords). */
  | { kind: 'none' }
  | { kind: 'invalid'; input: string };

/** The hint shown after an unknown key. */
export const APPROVAL_KEY_HINT = 'y approve · a all · n reject · s skip · e edit · c cancel · ? help';

const LETTERS: Record<string, ApprovalKeyAction> = {
  y: { kind: 'approve' },
  a: { kind: 'approve_all' },
  n: { kind: 'reject' },
  s: { kind: 'skip' },
  e: { kind: 'edit' },
  E: { kind: 'external_edit' },
  c: { kind: 'cancel_task' },
  '?': { kind: 'help' },
  j: { kind: 'scroll', move: 'line-down' },
  k: { kind: 'scroll', move: 'line-up' },
  g: { kind: 'scroll', move: 'top' },
  G: { kind: 'scroll', move: 'bottom' },
  u: { kind: 'toggle_layout' },
  f: { kind: 'toggle_full_screen' },
};

/** Letters a plan card does not take (it has no grant, skip, or file). */
const NOT_FOR: Record<ApprovalKeyKind, string[]> = {
  diff: [],
  command: ['u', 'E'],
  json: ['u', 'E'],
  plan: ['a', 's', 'u', 'E'],
};

/** Maps one key press to what it means on a card of `kind`. Pure, for tests. */
export function approvalKeyAction(
  input: string,
  key: Key,
  kind: ApprovalKeyKind,
  canExternalEdit = false,
): ApprovalKeyAction {
  if (key.upArrow || (key.tab && key.shift)) return { kind: 'queue', delta: -1 };
  if (key.downArrow || key.tab) return { kind: 'queue', delta: 1 };
  if (key.pageUp) return { kind: 'scroll', move: 'page-up' };
  if (key.pageDown) return { kind: 'scroll', move: 'page-down' };
  if (key.home) return { kind: 'scroll', move: 'top' };
  if (key.end) return { kind: 'scroll', move: 'bottom' };
  // Enter is the key most likely pressed by habit; it approves nothing and counts as a mistake.
  if (key.return) return { kind: 'invalid', input: '⏎' };
  if (key.escape) return { kind: 'cancel_turn' };
  if (key.ctrl || key.meta || input === '') return { kind: 'none' };
  const action = LETTERS[input];
  if (!action || NOT_FOR[kind].includes(input)) return { kind: 'invalid', input };
  if (action.kind === 'external_edit' && !canExternalEdit) return { kind: 'invalid', input };
  return action;
}

/** The tool and plan card key map; inactive while a form, the help or a decision owns the keys. */
export function useApprovalKeys(options: {
  isActive: boolean;
  kind: ApprovalKeyKind;
  canExternalEdit: boolean;
  onAction: (action: ApprovalKeyAction) => void;
}): void {
  const { isActive, kind, canExternalEdit, onAction } = options;
  useApprovalInput((input, key) => onAction(approvalKeyAction(input, key, kind, canExternalEdit)), { isActive });
}
