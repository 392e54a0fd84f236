import { randomUUID } from 'node:crypto';

/** Proof that the gate allowed exactly these arguments, once. Opaque outside the gate. */
export type ApprovalToken = { readonly id: string };

type Binding = { tool: string; argsHash: string; fileHash?: string };

export type Redemption =
  | { ok: true; fileHash?: string }
  | { ok: false; code: 'token_unknown' | 'token_reused' | 'token_mismatch'; reason: string };

/**
 * Mints one-time tokens bound to a tool and the hash of its final arguments (and, for writes, the
 * hash of the target file when the request was made). Contract: a token redeems at most once.
 */
export class TokenMint {
  private readonly live = new Map<string, Binding>();
  private readonly spent = new Set<string>();

  issue(binding: Binding): ApprovalToken {
    const token = { id: randomUUID() };
    this.live.set(token.id, binding);
    return Object.freeze(token);
  }

  redeem(token: ApprovalToken, tool: string, argsHash: string): Redemption {
    if (this.spent.has(token.id)) return { ok: false, code: 'token_reused', reason: 'This approval was already used once.' };
    const binding = this.live.get(token.id);
    if (!binding) return { ok: false, code: 'token_unknown', reason: 'No approval was issued for this call.' };
    this.live.delete(token.id);
    this.spent.add(token.id);
    if (binding.tool !== tool || binding.argsHash !== argsHash) {
      return { ok: false, code: 'token_mismatch', reason: 'The arguments differ from the ones that were approved.' };
    }
    return binding.fileHash === undefined ? { ok: true } : { ok: true, fileHash: binding.fileHash };
  }
}
