import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/text/count';

describe('formatCount', () => {
  it('groups thousands with commas, whatever the process locale', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(5000)).toBe('5,000');
    expect(formatCount(1234567)).toBe('1,234,567');
  });
});
