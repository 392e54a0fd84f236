/**
 * Two people for the highest risk (`twoPerson` in the managed config or the person's own): a tool card
 * whose risk, tool or deciding rule is listed runs only after two approvals from two distinct
 * identities. An identity is a signing key: the requester (this user — the person at the TUI, or an
 * answer signed with their own key) may give the first approval, never the second; a registered
 * approver's key (`approvers/NAME.pub`, checked by src/answers before its decision gets here) is
 * another identity. Like GitHub's `prevent_self_review`. A reject, a skip or a cancel from anyone
 * ends the card at once. Pure functions; the broker keeps the approvals.
 */
import type { TwoPersonRule } from '../config/schema';
import type { ApprovalRequest, DecidedBy, Decision, RuleRef } from '../protocol';
import type { PolicyResult } from '../policy/resolve';
import { picomatchLib } from '../policy/picomatch-lib';
import { identityLine } from '../text/identity-line';

export type { TwoPersonRule } from '../config/schema';

/** Tool cards: a plan, a question or an escalation is a conversation, not an effect of its own. */
const TOOL_CARDS: ReadonlySet<ApprovalRequest['preview']['kind']> = new Set(['diff', 'command', 'json']);

/** Whether a card for this call needs two people. Contract: pure. */
export function needsTwoPeople(
  rule: TwoPersonRule | undefined,
  card: {
    tool: string;
    risk: PolicyResult['risk'];
    rule: RuleRef;
    preview: ApprovalRequest['preview']['kind'];
  },
): boolean {
  if (!rule || !TOOL_CARDS.has(card.preview)) return false;
  if (rule.risk?.includes(card.risk.level)) return true;
  if (rule.rules?.includes(card.rule.id)) return true;
  return rule.tools?.some((glob) => picomatchLib().isMatch(card.tool, glob)) === true;
}

/**
 * Whether only a person's decision on its own card may let this call run: a managed `ask` rule decided
 * it (a session grant, approve-all or "don't ask again" would be the user loosening the managed policy),
 * or it needs two people. Contract: pure.
 */
export function personOnly(
  policy: Pick<PolicyResult, 'decision' | 'rule' | 'risk'>,
  tool: string,
  twoPerson: TwoPersonRule | undefined,
): boolean {
  if (policy.decision === 'ask' && policy.rule.source === 'managed') return true;
  // A command card's preview kind is not known before the card; every tool may be a tool card here.
  return needsTwoPeople(twoPerson, { tool, risk: policy.risk, rule: policy.rule, preview: 'json' });
}

/** What the person is told when their approval counted as the first of two. */
export const FIRST_OF_TWO =
  'Approved as the first of two: the card waits for a second person (warden approve ID --key FILE from another identity).';

/** The identity of the requester: this user, whatever the channel. */
export const REQUESTER = 'requester';

/**
 * Who stands behind a decision: `key:<id>` for an answer signed by another key than this user's
 * own (src/answers checked it against the registered approvers), else the requester — the TUI, a
 * hook of this user, or an answer signed with their own key.
 */
export function identityOf(by: DecidedBy | undefined, ownKeyId: string | undefined): string {
  if (by?.channel === 'cli' && by.keyId && by.keyId !== ownKeyId) return `key:${by.keyId}`;
  return REQUESTER;
}

/** What an approval of a two-person card comes to. */
export type ApprovalStep =
  | { kind: 'first' }
  | { kind: 'second'; first: DecidedBy }
  | { kind: 'refused'; code: 'same_identity' | 'self_approval'; text: string };

/**
 * Where an approval by `by` stands, given the approvals already recorded. Contract: pure.
 */
export function nextApproval(
  approvedBy: readonly DecidedBy[],
  by: DecidedBy | undefined,
  ownKeyId: string | undefined,
): ApprovalStep {
  const first = approvedBy[0];
  if (!first) return { kind: 'first' };
  const who = identityOf(by, ownKeyId);
  if (who === identityOf(first, ownKeyId))
    return {
      kind: 'refused',
      code: 'same_identity',
      text: `${identityLine(first)} approved already; the second approval must come from another identity (warden approve ID --key FILE with a registered approver's key)`,
    };
  if (who === REQUESTER)
    return {
      kind: 'refused',
      code: 'self_approval',
      text: 'the requester may give the first approval, never the second; the second must come from another identity',
    };
  return { kind: 'second', first };
}

/** Why a two-person card does not take this decision, or undefined when it may go on. Contract: pure. */
export function twoPersonRefusal(decision: Decision): string | undefined {
  if (decision.kind === 'approve_all')
    return 'A card that needs two people takes no approve-all: each call needs its own two approvals.';
  if (decision.kind === 'edit')
    return 'A card that needs two people is edited with review (e), and both approve the edited call.';
  return undefined;
}

/** Who gave a decision; on a two-person card, the first approval (`by`) and the second. */
export type Who = { by?: DecidedBy; secondBy?: DecidedBy };

/**
 * What a decision on a two-person card comes to: refused (approve-all, a direct edit, an approval that
 * does not count: `code` says why), the first approval (`first`: to record; the card waits), or on with
 * `who` (the second approval with the first, or a reject, skip or cancel from anyone). Contract: pure.
 */
export function twoPersonDecision(
  request: Pick<ApprovalRequest, 'twoPerson'>,
  decision: Decision,
  by: DecidedBy | undefined,
  ownKeyId: string | undefined,
):
  | { kind: 'settled'; result: { ok: false; error: string; code: string } }
  | { kind: 'first'; first: DecidedBy }
  | { kind: 'go'; who: Who } {
  const refused = twoPersonRefusal(decision);
  if (refused) return { kind: 'settled', result: { ok: false, error: refused, code: 'two_person' } };
  if (decision.kind !== 'approve') return { kind: 'go', who: by ? { by } : {} };
  const step = nextApproval(request.twoPerson?.approvedBy ?? [], by, ownKeyId);
  if (step.kind === 'refused')
    return { kind: 'settled', result: { ok: false, error: `Not counted: ${step.text}.`, code: step.code } };
  if (step.kind === 'second') return { kind: 'go', who: { by: step.first, ...(by ? { secondBy: by } : {}) } };
  return { kind: 'first', first: by ?? { channel: 'tui' } };
}
