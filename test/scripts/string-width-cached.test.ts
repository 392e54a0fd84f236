import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build shim without types
import cachedStringWidth, { NARROW_RANGES } from '../../scripts/string-width-cached.mjs';

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

  it('counts narrow lines without the segmenter only where string-width agrees, code point by code point', () => {
    // The table again, from string-width itself: one column alone, and never part of a bigger grapheme.
    const joins = (ch: string) => !/^\p{Grapheme_Base}$/u.test(ch) || /\p{M}/u.test(ch);
    const derived: [number, number][] = [];
    let start = -1;
    for (const [from, to] of [
      [0x20, 0x2ff],
      [0x2000, 0x2bff],
    ] as const)
      for (let code = from; code <= to + 1; code++) {
        const ch = String.fromCharCode(code);
        const good = code <= to && stringWidth(ch) === 1 && !joins(ch);
        if (good && start < 0) start = code;
        if (!good && start >= 0) {
          derived.push([start, code - 1]);
          start = -1;
        }
      }
    expect(NARROW_RANGES).toEqual(derived);
  });
  it('gives what string-width gives for lines mixing table characters and colour codes with wide, joined and escaped ones', () => {
    const pieces = [
      'a',
      '│',
      '·',
      '›',
      '⚠',
      '\uFE0F',
      '\u200D',
      '\u0301',
      '你',
      '🙂',
      '\u001b[1m',
      'é',
      '⏸',
      '─',
      '\u001b[',
      '\u001b[38;5;12m',
      '\u001b[22m',
      '\u001b]8;;http://x\u0007',
      '\u001b',
      'm',
      ';',
      '1',
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 3000; i++) {
      const line = Array.from({ length: 1 + (next() % 8) }, () => pieces[next() % pieces.length]).join('');
      expect(width(line), JSON.stringify(line)).toBe(stringWidth(line));
    }
  });
});
