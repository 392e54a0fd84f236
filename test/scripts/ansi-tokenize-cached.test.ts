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

  // The lines read without the segmenter (each code unit its own grapheme): every such unit, between
  // letters and doubled, is one segment on this Node's ICU, so reading code units is reading graphemes.
  it('every code unit the fast path trusts is a grapheme of its own here', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const trusted: number[] = [];
    for (let u = 0; u < 0x300; u++) if (u !== 0x0a && u !== 0x0d) trusted.push(u);
    for (const [lo, hi] of [
      [0x2010, 0x2027],
      [0x2030, 0x205e],
      [0x2190, 0x23ff],
      [0x2500, 0x27bf],
    ] as const)
      for (let u = lo; u <= hi; u++) trusted.push(u);
    const split: string[] = [];
    for (const u of trusted) {
      const c = String.fromCharCode(u);
      const text = `a${c}${c}b${c}\u2500${c}`;
      if ([...segmenter.segment(text)].length !== text.length) split.push(u.toString(16));
    }
    expect(split).toEqual([]);
  });

  it('gives what the package gives on generated lines: styles, links, bad escapes, and text it must segment', () => {
    const pieces = [
      'plain words ',
      'é ñ ß ÿ Ā ǅ ʰ ˚',
      '│ ─ ╭╮╰╯ ▌ ■ ● ◆ ✓ ✗ ❯ ⏵ ⌘ ⏎ ← ↑ → ⇧ … • · ‹ › “ ” ‰ ⁂',
      '\u2329\u232a\u231a\u23f0\u25fd\u2614\u2648\u26a1',
      '\u001b[1m',
      '\u001b[22m',
      '\u001b[1;3;31m',
      '\u001b[38;5;208m',
      '\u001b[38;2;1;2;3m',
      '\u001b[48;2;1;2m',
      '\u001b[39;49m',
      '\u001b[m',
      '\u001b[12x',
      '\u001b[38:5:208m',
      '\u001b[1;/m',
      '\u001b[',
      '\u001b',
      '\u001bX',
      '\u009b31m',
      '\u001b]8;;https://example.com\u0007',
      '\u001b]8;id=1;https://example.com/a?b=c\u0007',
      '\u001b]8;;\u0007',
      '\u001b]8;;unterminated',
      '\u001b]8',
      '\u001b]0;title\u0007',
      '\t',
      '\u0000\u0007\u007f\u0085\u00ad',
      // Lines that must go to the segmenter: combining marks, joiners, emoji, CJK, surrogates, CR LF.
      'e\u0301',
      '\u{1f468}\u200d\u{1f469}',
      '\u2764\ufe0f',
      '\u{1f1eb}\u{1f1f7}',
      '你好',
      '\r\n',
      '\u{1f642}',
      '\ud800',
      'a\u20e3',
    ];
    let seed = 11;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let line = 0; line < 3000; line++) {
      let text = '';
      for (let part = 0; part < 1 + next(8); part++) text += pieces[next(pieces.length)];
      // Fresh strings (a number on the end), so the memo does not answer instead of the tokenizer.
      text += String(line);
      expect(memo.tokenize(text), JSON.stringify(text)).toEqual(pkg.tokenize(text));
    }
  });

  it('re-exports the rest of the package', () => {
    expect(memo.diffAnsiCodes).toBe(pkg.diffAnsiCodes);
    expect(memo.reduceAnsiCodes).toBe(pkg.reduceAnsiCodes);
    expect(memo.ansiCodesToString).toBe(pkg.ansiCodesToString);
  });
});
