/**
 * An answer given outside the app: a decision on one waiting request, bound to everything the person
 * saw — the request, its session, the arguments' hash, the file's pre-image, the policy's digest and a
 * time limit — and signed (signing-key.ts). A running warden applies it only when every bound field
 * still holds (answer-check.ts); anything else is a refusal, never a run.
 */
import { type KeyObject, sign, verify } from 'node:crypto';
import type { DecidedBy } from '../protocol';
import { canonicalJson } from '../text/canonical-json';
import type { SigningKey } from './signing-key';

/** The decisions an answer may carry: what a person can say on a card from another terminal. */
export type AnswerDecision =
  | { kind: 'approve'; confirmHigh?: true }
  | { kind: 'reject'; reason: string }
  | { kind: 'skip' };

/** What is signed. */
export type AnswerBody = {
  v: 1;
  requestId: string;
  sessionId: string;
  argsHash: string;
  /** The hash of the file the write replaces, as the card showed it (absent: no file, or not a write). */
  preImageHash?: string;
  /** The policy's digest when the card was asked (absent on a card from before digests). */
  policyDigest?: string;
  decision: AnswerDecision;
  by: DecidedBy;
  issuedAt: string;
  /** After this the answer applies to nothing (the request's own expiry, or a day). */
  validUntil: string;
};

export type SignedAnswer = AnswerBody & { keyId: string; sig: string };

/** The largest answer file read: a few hundred bytes is the norm. */
export const ANSWER_MAX_BYTES = 16 * 1024;

/** Signs `body` with `key`. */
export function signAnswer(body: AnswerBody, key: SigningKey): SignedAnswer {
  const sig = sign(null, Buffer.from(canonicalJson(body)), key.privateKey).toString('base64');
  return { ...body, keyId: key.keyId, sig };
}

/**
 * Whether `answer` was signed by `key` (this user's own, or a registered approver's public key): the
 * key id and the Ed25519 signature over every other field. Contract: never throws.
 */
export function signedBy(
  answer: SignedAnswer,
  key: { keyId: string; publicKey: KeyObject } | undefined,
): boolean {
  if (!key || answer.keyId !== key.keyId) return false;
  const { keyId: _id, sig, ...body } = answer;
  try {
    return verify(null, Buffer.from(canonicalJson(body)), key.publicKey, Buffer.from(sig, 'base64'));
  } catch {
    return false;
  }
}

/**
 * Reads an answer file's text as a `SignedAnswer`, or says what is wrong with it. Only the shape is
 * checked here; the signature and the bound fields are checked against the request.
 * Contract: never throws.
 */
export function parseAnswer(text: string): { ok: true; answer: SignedAnswer } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'the answer file is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, error: 'the answer file is not a JSON object' };
  const a = value as Record<string, unknown>;
  const strings = ['requestId', 'sessionId', 'argsHash', 'issuedAt', 'validUntil', 'keyId', 'sig'];
  for (const field of strings)
    if (typeof a[field] !== 'string' || a[field] === '')
      return { ok: false, error: `the answer has no ${field}` };
  for (const field of ['preImageHash', 'policyDigest'])
    if (a[field] !== undefined && typeof a[field] !== 'string')
      return { ok: false, error: `the answer's ${field} is not text` };
  if (a.v !== 1) return { ok: false, error: 'the answer is of an unknown version' };
  if (!isDecision(a.decision)) return { ok: false, error: 'the answer carries no decision warden knows' };
  const by = a.by as Record<string, unknown> | undefined;
  if (typeof by !== 'object' || by === null || by.channel !== 'cli')
    return { ok: false, error: 'the answer does not say who gave it (channel cli)' };
  return { ok: true, answer: value as SignedAnswer };
}

function isDecision(d: unknown): d is AnswerDecision {
  if (typeof d !== 'object' || d === null) return false;
  const x = d as Record<string, unknown>;
  if (x.kind === 'approve') return x.confirmHigh === undefined || x.confirmHigh === true;
  if (x.kind === 'reject') return typeof x.reason === 'string' && x.reason.trim() !== '';
  return x.kind === 'skip';
}
