import * as crypto from 'node:crypto';
import { canonicalJson } from '../text/canonical-json';

// canonicalJson is pure text, so it lives in src/text/ where trust can reach it too; the gate takes it here.
export { canonicalJson };

// One-shot hashing (Node >= 20.12) is about three times cheaper than createHash for short input.
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Buffer, encoding: 'hex') => string })
  .hash;
const sha256Hex = (data: string | Buffer): string =>
  oneShot ? oneShot('sha256', data, 'hex') : crypto.createHash('sha256').update(data).digest('hex');

/** sha256 of the canonical JSON of a call's arguments (hex, 32 characters kept). */
export function hashArgs(args: unknown): string {
  return sha256Hex(canonicalJson(args) ?? 'undefined').slice(0, 32);
}

/** sha256 of a file's bytes, or 'absent'. */
export function hashContent(content: Buffer | string | undefined): string {
  return content === undefined ? 'absent' : sha256Hex(content).slice(0, 32);
}

/** The digest of a policy in force (its rules and the mode): what an answer given elsewhere binds. */
export function policyDigest(policy: { rules: readonly unknown[]; mode: string }): string {
  return hashArgs(policy);
}
