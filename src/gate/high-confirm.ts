import type { ApprovalRequest, Decision } from '../protocol';

/** The tool cards whose high risk asks twice: what runs there is the call itself, not an answer. */
const CONFIRMED_KINDS: ReadonlySet<ApprovalRequest['preview']['kind']> = new Set(['diff', 'command', 'json']);

/**
 * Whether `decision` would run a high-risk call without its second confirmation. The core enforces
 * this for every channel (app, CLI, scripts): an approve of a high-risk tool card needs `confirmHigh`.
 * A person's edit is checked again as a new call (its own risk), and the drawer sends every edit for
 * review, so the approve that runs it is the one that confirms.
 */
export function needsSecondConfirmation(request: ApprovalRequest, decision: Decision): boolean {
  if (request.risk.level !== 'high' || !CONFIRMED_KINDS.has(request.preview.kind)) return false;
  if (decision.kind === 'approve') return decision.confirmHigh !== true;
  return decision.kind === 'approve_all';
}

/** What a high-risk approve without its confirmation is told. */
export const HIGH_UNCONFIRMED =
  'A high-risk call needs the second confirmation (confirmHigh): in the app, y twice; from another terminal, warden approve ID --confirm-high.';
