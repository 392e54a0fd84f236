/**
 * The approval queue's look before a card is shown (broker.ts): which PermissionRequest hooks apply,
 * their start, and what a card becomes when their answer decided nothing. Pure, apart from the start.
 */
import type { CardAnswer } from '../hooks/permission-request';
import type { ApprovalRequest, DecidedBy, FailCode } from '../protocol';

/**
 * Before a card is announced: the PermissionRequest hooks that apply to it (undefined: none), as a start
 * that runs them; `signal` aborts once the request ended meanwhile. Contract: the answer never rejects.
 */
export type CardScreen = (
  request: ApprovalRequest,
) => ((signal: AbortSignal) => Promise<CardAnswer>) | undefined;

const FAILED: CardAnswer = {
  kind: 'failed',
  hook: 'hooks',
  reason: 'hook_failed: the PermissionRequest hooks could not be run',
};

/** The hooks that apply to `request`; a screen that throws applies none (the person is asked). */
export function hooksFor(screen: CardScreen | undefined, request: ApprovalRequest): ReturnType<CardScreen> {
  try {
    return screen?.(request);
  } catch {
    return undefined;
  }
}

/** Starts the hooks; a start that throws is a failed answer (it never approves). */
export function startScreen(start: NonNullable<ReturnType<CardScreen>>): {
  answer: Promise<CardAnswer>;
  abort: AbortController;
} {
  const abort = new AbortController();
  try {
    return { answer: start(abort.signal), abort };
  } catch {
    return { answer: Promise.resolve(FAILED), abort };
  }
}

/** The hooks' answer; one that rejects after all is a failure. Never rejects. */
export function settledAnswer(pending: Promise<CardAnswer>): Promise<CardAnswer> {
  return pending.catch(() => FAILED);
}

/** What the card tells the person of the hooks, when their answer did not settle it (`refused`: why a decision did not apply). */
export function screenNote(answer: CardAnswer, refused?: string): string | undefined {
  if (answer.kind === 'none') return answer.note;
  if (answer.kind === 'failed') return `${answer.reason}.`;
  if (refused === undefined) return undefined;
  const did = answer.decision.kind === 'approve' ? 'approved it' : 'answered it';
  return `The PermissionRequest hook ${answer.hook} ${did}, but it needs a person: ${refused}`;
}

/** How a card ends when its hooks did not settle it and nobody is there: its own code for a failed hook. */
export function nobodyAfterScreen(answer: CardAnswer, note?: string): { code: FailCode; reason: string } {
  if (answer.kind === 'failed') return { code: 'hook_failed', reason: answer.reason };
  return {
    code: 'no_approver',
    reason: `No one is there to approve (headless run).${note ? ` ${note}` : ''}`,
  };
}

/** Who a decision is credited to: a hook by its name, else the person. */
export function approverOf(by: DecidedBy | undefined): 'human' | `hook:${string}` {
  return by?.channel === 'hook' && by.hook ? `hook:${by.hook}` : 'human';
}
