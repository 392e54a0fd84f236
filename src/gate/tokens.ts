/** Proof that the gate allowed exactly these arguments, once. Opaque outside the gate. */
export type ApprovalToken = { readonly id: string };

type Binding = { tool: string; argsHash: string; fileHash?: string };

export type Redemption =
  | { ok: true; fileHash?: string }
  | { ok: false; code: 'token_unknown' | 'token_reused' | 'token_mismatch'; reason: string };

/**
 * Mints one-time tokens bound to a tool and the hash of its final arguments (and, for writes, the
 * hash of the target file when the request was made). Contract: a token redeems at most once.
 * A token is recognised by identity — the very object this mint issued — so it cannot be forged
 * by copying its id; the id only names it in logs.
 */
export class TokenMint {
  private readonly live = new WeakMap<ApprovalToken, Binding>();
  private readonly spent = new WeakSet<ApprovalToken>();
  private issued = 0;

  issue(binding: Binding): ApprovalToken {
    this.issued += 1;
    const token: ApprovalToken = Object.freeze({ id: `token-${this.issued}` });
    this.live.set(token, binding);
    return token;
  }

  redeem(token: ApprovalToken, tool: string, argsHash: string): Redemption {
    if (this.spent.has(token)) return { ok: false, code: 'token_reused', reason: 'This approval was already used once.' };
    const binding = this.live.get(token);
    if (!binding) return { ok: false, code: 'token_unknown', reason: 'No approval was issued for this call.' };
    this.live.delete(token);
    this.spent.add(token);
    if (binding.tool !== tool || binding.argsHash !== argsHash) {
      return { ok: false, code: 'token_mismatch', reason: 'The arguments differ from the ones that were approved.' };
    }
    return binding.fileHash === undefined ? { ok: true } : { ok: true, fileHash: binding.fileHash };
  }
}
