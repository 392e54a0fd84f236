import * as pkg from '@alcalzone/ansi-tokenize';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build shim without types
import * as cached from '../../scripts/ansi-tokenize-cached.mjs';

const memo = cached as typeof pkg;

describe("the bundle's memoised ansi-tokenize", () => {
  const samples = [
    '',
    'plain ascii',
    ' 999 \u001b[2m-\u001b[22m a │ 1000 \u001b[32m+ b\u001b[39m',
    '\u001b[7m\u001b[1mchanged\u001b[22m\u001b[27m tail',
    '你好 🙂 é',
    '\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007',
  ];

  it('gives what the package gives, first time and from the memo', () => {
    for (let round = 0; round < 2; round++)
      for (const s of samples) {
        expect(memo.tokenize(s), JSON.stringify(s)).toEqual(pkg.tokenize(s));
        expect(memo.styledCharsFromTokens(memo.tokenize(s))).toEqual(
          pkg.styledCharsFromTokens(pkg.tokenize(s)),
        );
        expect(memo.styledCharsToString(memo.styledCharsFromTokens(memo.tokenize(s)))).toBe(
          pkg.styledCharsToString(pkg.styledCharsFromTokens(pkg.tokenize(s))),
        );
      }
  });

  it('hands out one result per line, as Ink calls it', () => {
    const line = '\u001b[31mred\u001b[39m line';
    expect(memo.styledCharsFromTokens(memo.tokenize(line))).toBe(
      memo.styledCharsFromTokens(memo.tokenize(line)),
    );
  });

  it('passes a cut-off tokenize through unmemoised', () => {
    expect(memo.tokenize('\u001b[31mred\u001b[39m', 2)).toEqual(pkg.tokenize('\u001b[31mred\u001b[39m', 2));
  });

  it('keeps a bounded number of lines: an old line is tokenized again, with the same result', () => {
    const old = 'line 0';
    const first = memo.tokenize(old);
    for (let i = 1; i <= 1000; i++) memo.tokenize(`line ${i}`);
    const again = memo.tokenize(old);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('re-exports the rest of the package', () => {
    expect(memo.diffAnsiCodes).toBe(pkg.diffAnsiCodes);
    expect(memo.ansiCodesToString).toBe(pkg.ansiCodesToString);
  });
});
