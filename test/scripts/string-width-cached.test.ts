import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build shim without types
import cachedStringWidth from '../../scripts/string-width-cached.mjs';

const width = cachedStringWidth as (text: string, options?: { ambiguousIsNarrow?: boolean }) => number;

describe("the bundle's memoised string-width", () => {
  const samples = [
    '',
    'plain ascii',
    ' 999 - a │ 1000 + b',
    '你好',
    '🙂 ok',
    '\u001b[31mred\u001b[39m',
    'é',
    '⋯ 12 unchanged lines',
  ];
  it('gives what string-width gives, first time and from the memo', () => {
    for (let round = 0; round < 2; round++)
      for (const s of samples) expect(width(s), JSON.stringify(s)).toBe(stringWidth(s));
  });
  it('passes options through unmemoised', () => {
    expect(width('±', { ambiguousIsNarrow: false })).toBe(stringWidth('±', { ambiguousIsNarrow: false }));
    expect(width('±')).toBe(stringWidth('±'));
  });
});
