/**
 * Whether an answer from outside the app applies to a waiting request: signed by this user's key, for
 * this session and this request (or the request it was offered again for after a restart), the same
 * arguments, the same file, the same policy, in time. The gate then re-checks it like any decision.
 */
import type { ApprovalRequest, Decision } from '../protocol';
import type { SignedAnswer } from './answer';
import { signedBy } from './answer';
import type { SigningKey } from './signing-key';

/** What the running warden knows now, against which an answer is checked. */
export type AnswerWorld = {
  sessionId: string;
  /** The digest of the policy in force now (gate.policyDigest()). */
  policyDigest: string;
  nowMs: number;
  /** This user's answer key, if one was ever made. */
  key: SigningKey | undefined;
};

export type RefusalCode =
  | 'unsigned'
  | 'other_session'
  | 'other_request'
  | 'args_changed'
  | 'file_changed'
  | 'policy_changed'
  | 'expired'
  | 'high_unconfirmed';

export type Refusal = { code: RefusalCode; text: string };

/** Whether `answer` is meant for `request` (its id, or the id it had before a restart). */
export function answersRequest(answer: Pick<SignedAnswer, 'requestId'>, request: ApprovalRequest): boolean {
  return answer.requestId === request.id || answer.requestId === request.resumedFrom?.requestId;
}

/**
 * Why `answer` does not apply to `request`, or undefined when it does.
 * Contract: pure (but for the signature check); never throws.
 */
export function answerRefusal(
  answer: SignedAnswer,
  request: ApprovalRequest,
  world: AnswerWorld,
): Refusal | undefined {
  if (!signedBy(answer, world.key))
    return refusal('unsigned', "it is not signed by this user's answer key ($WARDEN_HOME/keys/answers.key)");
  if (answer.sessionId !== world.sessionId) return refusal('other_session', 'it is for another session');
  if (!answersRequest(answer, request)) return refusal('other_request', 'it is for another request');
  if (answer.argsHash !== request.argsHash)
    return refusal('args_changed', 'the call it approves is not the one waiting (its arguments differ)');
  if (answer.preImageHash !== request.preImageHash || request.resumedFrom?.fileChanged)
    return refusal(
      'file_changed',
      'the file changed since the card it answers was made; the new diff needs a new answer',
    );
  if (answer.policyDigest === undefined || answer.policyDigest !== world.policyDigest)
    return refusal('policy_changed', 'the policy changed since the card was asked (rules, mode or trust)');
  const until = Date.parse(answer.validUntil);
  if (!Number.isFinite(until) || until <= world.nowMs)
    return refusal('expired', `it was valid until ${answer.validUntil}`);
  if (request.expiresAt && Date.parse(request.expiresAt) <= world.nowMs)
    return refusal('expired', `the request expired at ${request.expiresAt}`);
  const high = request.risk.level === 'high';
  if (high && answer.decision.kind === 'approve' && answer.decision.confirmHigh !== true)
    return refusal('high_unconfirmed', 'the call is high risk and the answer has no --confirm-high');
  return undefined;
}

/** The gate's decision an answer carries. */
export function decisionOf(answer: SignedAnswer): Decision {
  const d = answer.decision;
  if (d.kind === 'approve')
    return d.confirmHigh ? { kind: 'approve', confirmHigh: true } : { kind: 'approve' };
  if (d.kind === 'reject') return { kind: 'reject', reason: d.reason };
  return { kind: 'skip' };
}

const refusal = (code: RefusalCode, text: string): Refusal => ({ code, text });
