/**
 * Whether an answer from outside the app applies to a waiting request: signed by this user's key (or a
 * registered approver's, approvers.ts), for
 * this session and this request (or the request it was offered again for after a restart), the same
 * arguments, the same file, the same policy, in time. The gate then re-checks it like any decision.
 */
import type { ApprovalRequest, Decision } from '../protocol';
import type { SignedAnswer } from './answer';
import { signedBy } from './answer';
import type { ApproverKey, Approvers } from './approvers';
import type { SigningKey } from './signing-key';

/** What the running warden knows now, against which an answer is checked. */
export type AnswerWorld = {
  sessionId: string;
  /** The digest of the policy in force now (gate.policyDigest()). */
  policyDigest: string;
  nowMs: number;
  /** This user's answer key, if one was ever made. */
  key: SigningKey | undefined;
  /** The registered approvers' keys (another identity each). */
  approvers?: Approvers;
};

/** Who signed an answer: this user (their own key), or a registered approver; undefined when neither. */
export type Signer = { kind: 'own' } | { kind: 'approver'; approver: ApproverKey };

/** The key that signed `answer`, checked. Contract: never throws. */
export function signerOf(
  answer: SignedAnswer,
  world: Pick<AnswerWorld, 'key' | 'approvers'>,
): Signer | undefined {
  if (signedBy(answer, world.key)) return { kind: 'own' };
  const approver = world.approvers?.get(answer.keyId);
  return approver && signedBy(answer, approver) ? { kind: 'approver', approver } : undefined;
}

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
 * Why `answer` does not apply to `request`, or undefined when it does. `foreign`: the file belongs to
 * another user, who may answer only with a registered approver's key.
 * Contract: pure (but for the signature check); never throws.
 */
export function answerRefusal(
  answer: SignedAnswer,
  request: ApprovalRequest,
  world: AnswerWorld,
  foreign = false,
): Refusal | undefined {
  const signer = signerOf(answer, world);
  if (!signer)
    return refusal(
      'unsigned',
      "it is not signed by this user's answer key ($WARDEN_HOME/keys/answers.key) nor by a registered approver's (approvers/NAME.pub)",
    );
  if (foreign && signer.kind !== 'approver')
    return refusal('unsigned', "the file is another user's, and not signed by a registered approver's key");
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
