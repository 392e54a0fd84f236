/** Proof that the gate allowed exactly these arguments, once. Opaque outside the gate. */
export type ApprovalToken = { readonly id: string };

type Binding = { tool: string; argsHash: string; fileHash?: string };

export type Redemption =
  | { ok: true; fileHash?: string }
  | { ok: false; code: 'token_unknown' | 'token_reused' | 'token_mismatch'; reason: string };

/**
 * A token as issued: its binding lives in private fields, so only the object the mint handed out
 * redeems — a copy with the same id, or anything else shaped like a token, is unknown.
 */
class IssuedToken implements ApprovalToken {
  readonly id: string;
  readonly #mint: TokenMint;
  readonly #binding: Binding;
  #spent = false;

  constructor(id: string, mint: TokenMint, binding: Binding) {
    this.id = id;
    this.#mint = mint;
    this.#binding = binding;
    Object.freeze(this);
  }

  static redeem(token: ApprovalToken, mint: TokenMint, tool: string, argsHash: string): Redemption {
    if (!(token instanceof IssuedToken) || token.#mint !== mint)
      return { ok: false, code: 'token_unknown', reason: 'No approval was issued for this call.' };
    if (token.#spent)
      return { ok: false, code: 'token_reused', reason: 'This approval was already used once.' };
    token.#spent = true;
    const binding = token.#binding;
    if (binding.tool !== tool || binding.argsHash !== argsHash) {
      return {
        ok: false,
        code: 'token_mismatch',
        reason: 'The arguments differ from the ones that were approved.',
      };
    }
    return binding.fileHash === undefined ? { ok: true } : { ok: true, fileHash: binding.fileHash };
  }
}

/**
 * Mints one-time tokens bound to a tool and the hash of its final arguments (and, for writes, the
 * hash of the target file when the request was made). Contract: a token redeems at most once, and
 * only at the mint that issued it.
 */
export class TokenMint {
  private issued = 0;

  issue(binding: Binding): ApprovalToken {
    this.issued += 1;
    return new IssuedToken(`token-${this.issued}`, this, binding);
  }

  redeem(token: ApprovalToken, tool: string, argsHash: string): Redemption {
    return IssuedToken.redeem(token, this, tool, argsHash);
  }
}
