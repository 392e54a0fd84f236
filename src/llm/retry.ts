/** The retry policy of the model client: pure, so every branch is table-tested. */

/** How hard to try before giving up. */
export type RetryPolicy = {
  /** Retries after the first attempt (so `maxRetries + 1` attempts in all). */
  maxRetries: number;
  /** Backoff before the first retry; doubles on each further retry. */
  baseDelayMs: number;
  /** Upper bound of any computed backoff. */
  maxDelayMs: number;
  /** A server's Retry-After up to this long is honoured; a longer one ends the retries. */
  maxRetryAfterMs: number;
  /**
   * Retries after an idle timeout or a cut stream (within `maxRetries`). One fresh connection can
   * help; a server that went silent twice is down, and waiting more only delays the message.
   */
  maxTimeoutRetries: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 20_000,
  maxTimeoutRetries: 1,
};

/** What went wrong with one attempt, as far as retrying is concerned. */
export type AttemptFailure =
  | { kind: 'http'; status: number; retryAfterMs?: number }
  | { kind: 'network' }
  | { kind: 'timeout' };

export type RetryDecision =
  | { kind: 'retry'; delayMs: number }
  | { kind: 'stop'; reason: 'not_retryable' | 'exhausted' | 'retry_after_too_long' };

/** 429, 408 and any 5xx may pass; other statuses are the request's own fault. */
export function isRetryable(failure: AttemptFailure): boolean {
  if (failure.kind !== 'http') return true;
  return failure.status === 429 || failure.status === 408 || failure.status >= 500;
}

/**
 * Decides whether to retry after the `retriesDone`-th retry failed (0 after the first attempt).
 * Exponential backoff with equal jitter, so parallel sub-agents do not retry in lockstep.
 * Contract: pure; `random` must return a number in [0, 1).
 */
export function nextRetry(
  policy: RetryPolicy,
  retriesDone: number,
  failure: AttemptFailure,
  random: () => number = Math.random,
): RetryDecision {
  if (!isRetryable(failure)) return { kind: 'stop', reason: 'not_retryable' };
  if (retriesDone >= policy.maxRetries) return { kind: 'stop', reason: 'exhausted' };
  if (failure.kind === 'http' && failure.retryAfterMs !== undefined) {
    if (failure.retryAfterMs > policy.maxRetryAfterMs)
      return { kind: 'stop', reason: 'retry_after_too_long' };
    return { kind: 'retry', delayMs: Math.max(0, Math.round(failure.retryAfterMs)) };
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retriesDone);
  return { kind: 'retry', delayMs: Math.round(ceiling / 2 + random() * (ceiling / 2)) };
}

/**
 * Reads `retry-after-ms` or `retry-after` (seconds or an HTTP date) into milliseconds.
 * Contract: returns undefined for a missing or unreadable header, never a negative number.
 */
export function parseRetryAfter(
  get: (name: string) => string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  const ms = Number.parseFloat(get('retry-after-ms') ?? '');
  if (Number.isFinite(ms)) return Math.max(0, ms);
  const raw = get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw.trim());
  if (raw.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
