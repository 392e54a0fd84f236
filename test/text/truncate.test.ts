import { describe, expect, it } from 'vitest';
import { compactJson, prettyJson } from '../../src/text/json';
import { truncateCells, truncateChars } from '../../src/text/truncate';
import { takeWidth, textWidth } from '../../src/text/width';

describe('truncateChars and truncateCells', () => {
  it.each([
    ['hello', 5, 'hello', 'hello'],
    ['hello world', 5, 'hell…', 'hell…'],
    ['hello', 1, '…', '…'],
    ['hello', 0, '', ''],
    // Wide characters: one code unit each, two cells each.
    ['日本語テキスト', 4, '日本語…', '日…'],
  ])('%j in %i', (text, n, chars, cells) => {
    expect(truncateChars(text, n)).toBe(chars);
    expect(truncateCells(text, n)).toBe(cells);
    expect(textWidth(truncateCells(text, n))).toBeLessThanOrEqual(Math.max(0, n));
  });

  it('measures cells', () => {
    expect(textWidth('a日e\u0301')).toBe(4);
    expect(takeWidth('日本語', 3)).toBe('日');
  });
});

describe('compactJson and prettyJson', () => {
  it('never throw', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(compactJson(cycle)).toBe('[object Object]');
    expect(prettyJson(1n)).toBe('1');
    expect(prettyJson(undefined)).toBe('undefined');
    expect(compactJson({ a: [1] })).toBe('{"a":[1]}');
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}');
  });
});
