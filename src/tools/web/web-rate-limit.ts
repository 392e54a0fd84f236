export type RateLimiter = {
  /** Takes one slot, or says how long until one frees up. */
  take(): { ok: true } | { ok: false; retryAfterMs: number };
};

/**
 * A sliding-window limiter: at most `max` takes in any `windowMs`.
 * Contract: a refused take does not consume a slot.
 */
export function createRateLimiter(max: number, windowMs: number, now: () => number = Date.now): RateLimiter {
  const taken: number[] = [];
  return {
    take() {
      const t = now();
      while (taken.length > 0 && (taken[0] as number) <= t - windowMs) taken.shift();
      if (taken.length >= max) return { ok: false, retryAfterMs: (taken[0] as number) + windowMs - t };
      taken.push(t);
      return { ok: true };
    },
  };
}
