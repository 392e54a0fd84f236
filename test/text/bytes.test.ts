import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/text/bytes';

describe('formatBytes: one format for the core', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [600 * 1024, '600 KB'],
    [5 * 1024 * 1024, '5 MB'],
    [5 * 1024 * 1024 + 1, '5 MB'],
    [10 * 1024 * 1024, '10 MB'],
    [3 * 1024 ** 3, '3 GB'],
  ])('%i → %s', (bytes, shown) => {
    expect(formatBytes(bytes)).toBe(shown);
  });
});
