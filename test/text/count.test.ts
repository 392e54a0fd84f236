import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/text/count';

describe('formatCount', () => {
  it('groups thousands with commas, whatever the process locale', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(5000)).toBe('5,000');
    expect(formatCount(1234567)).toBe('1,234,567');
  });

  it('writes every number as the en-US formatter does', () => {
    const intl = new Intl.NumberFormat('en-US');
    const values = [
      -0,
      1,
      -1,
      10,
      100,
      1000,
      -1000,
      99_999,
      100_000,
      -123_456_789,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
      2 ** 60,
      1.5,
      -1234.5678,
      0.0001,
      1e21,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ];
    // Every length of whole number, both signs.
    for (let digits = 1; digits <= 16; digits++) {
      const n = Number('9'.repeat(digits)) - 0;
      values.push(n, -n, Math.floor(n / 7));
    }
    for (const n of values) expect(formatCount(n), String(n)).toBe(intl.format(n));
  });
});
