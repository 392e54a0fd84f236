import { describe, expect, it } from 'vitest';
import {
  type AttemptFailure,
  isRetryable,
  nextRetry,
  parseRetryAfter,
  type RetryPolicy,
} from '../../src/llm/retry';

const policy: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 100,
  maxDelayMs: 1_000,
  maxRetryAfterMs: 5_000,
  maxTimeoutRetries: 1,
};
const http = (status: number, retryAfterMs?: number): AttemptFailure => ({
  kind: 'http',
  status,
  retryAfterMs,
});

describe('isRetryable', () => {
  it.each([
    [http(429), true],
    [http(408), true],
    [http(500), true],
    [http(503), true],
    [http(400), false],
    [http(401), false],
    [http(404), false],
    [{ kind: 'network' } as AttemptFailure, true],
    [{ kind: 'timeout' } as AttemptFailure, true],
  ])('%o → %s', (failure, expected) => {
    expect(isRetryable(failure)).toBe(expected);
  });
});

describe('nextRetry', () => {
  it.each([
    // retriesDone, random, expected delay: ceiling = min(max, base·2^n), delay = ceiling/2 + random·ceiling/2
    [0, 0, 50],
    [0, 0.999, 100],
    [1, 0, 100],
    [2, 0.5, 300],
    [3, 0, 'exhausted'],
  ] as const)('after %i retries with random %f → %s', (retriesDone, random, expected) => {
    const decision = nextRetry(policy, retriesDone, http(503), () => random);
    if (typeof expected === 'string') expect(decision).toEqual({ kind: 'stop', reason: expected });
    else expect(decision).toEqual({ kind: 'retry', delayMs: expected });
  });

  it('never waits longer than maxDelayMs', () => {
    const wide = { ...policy, maxRetries: 20 };
    for (let n = 0; n < 20; n += 1) {
      const d = nextRetry(wide, n, { kind: 'network' }, () => 0.999);
      expect(d.kind === 'retry' && d.delayMs <= 1_000).toBe(true);
    }
  });

  it('honours a small Retry-After exactly and stops on a long one', () => {
    expect(nextRetry(policy, 0, http(429, 2_000))).toEqual({ kind: 'retry', delayMs: 2_000 });
    expect(nextRetry(policy, 0, http(429, 60_000))).toEqual({ kind: 'stop', reason: 'retry_after_too_long' });
  });

  it('does not retry what no retry can fix', () => {
    expect(nextRetry(policy, 0, http(400))).toEqual({ kind: 'stop', reason: 'not_retryable' });
  });
});

describe('parseRetryAfter', () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name];
  it.each([
    [{ 'retry-after': '3' }, 3_000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after-ms': '250' }, 250],
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [{ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, 10_000],
    [{ 'retry-after': 'Thu, 01 Jan 2026 00:00:00 GMT' }, 0],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after': '' }, undefined],
    [{}, undefined],
  ])('%o → %s', (h, expected) => {
    expect(parseRetryAfter(headers(h), Date.parse('2026-01-01T00:00:00Z'))).toBe(expected);
  });
});
