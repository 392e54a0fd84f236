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

  it("styledCharsToString: a row of Ink's grid (cells of several lines and blank cells) prints as the package prints it", () => {
    const pieces = [
      '\u001b[1mbold\u001b[22m',
      '\u001b[2mdim\u001b[1mboth\u001b[22m',
      '\u001b[31mred\u001b[41mon red\u001b[49m\u001b[39m',
      '\u001b[7m\u001b[32minverse green\u001b[39m\u001b[27m',
      'plain',
      '\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007',
      '\u001b[38;2;1;2;3mtrue colour\u001b[39m',
    ];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let row = 0; row < 300; row++) {
      const cells: { type: 'char'; value: string; fullWidth: boolean; styles: unknown[] }[] = [];
      for (let part = 0; part < 1 + next(5); part++) {
        for (let blank = next(3); blank > 0; blank--)
          cells.push({ type: 'char', value: ' ', fullWidth: false, styles: [] });
        const line = pieces[next(pieces.length)] as string;
        cells.push(...(memo.styledCharsFromTokens(memo.tokenize(line)) as typeof cells));
      }
      expect(memo.styledCharsToString(cells as never)).toBe(pkg.styledCharsToString(cells as never));
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
    expect(memo.reduceAnsiCodes).toBe(pkg.reduceAnsiCodes);
    expect(memo.ansiCodesToString).toBe(pkg.ansiCodesToString);
  });
});
