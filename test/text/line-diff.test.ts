import { diffArrays } from 'diff';
import { describe, expect, it } from 'vitest';
import { diffLineBlocks, type LineBlock } from '../../src/text/line-diff';

/** Applies blocks to `a` with `b`'s added lines: must give back `b`; the same lines must really match. */
function replay(a: string[], b: string[], blocks: LineBlock[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  for (const blk of blocks) {
    if (blk.kind === 'same') {
      for (let k = 0; k < blk.count; k++) {
        expect(a[i]).toBe(b[j]);
        out.push(a[i++] as string);
        j++;
      }
    } else if (blk.kind === 'removed') i += blk.count;
    else for (let k = 0; k < blk.count; k++) out.push(b[j++] as string);
  }
  expect(i).toBe(a.length);
  return out;
}
const changed = (blocks: LineBlock[]) =>
  blocks.filter((b) => b.kind !== 'same').reduce((n, b) => n + b.count, 0);

describe('diffLineBlocks', () => {
  it.each([
    { a: [], b: [] },
    { a: ['x'], b: [] },
    { a: [], b: ['x', 'y'] },
    { a: ['a', 'b', 'c'], b: ['a', 'b', 'c'] },
    { a: ['a', 'b', 'c', 'd'], b: ['a', 'B', 'X', 'd'] },
    { a: ['a', 'b', 'c'], b: ['c', 'b', 'a'] },
    { a: ['x', 'a', 'b'], b: ['a', 'b', 'y'] },
    { a: ['a\r', 'b'], b: ['a', 'b'] },
  ])('$a → $b', ({ a, b }) => {
    const blocks = diffLineBlocks(a, b, Number.POSITIVE_INFINITY);
    if (!blocks) throw new Error('no diff');
    expect(replay(a, b, blocks)).toEqual(b);
    // Minimal, as the reference diff is.
    const ref = diffArrays(a, b).reduce((n, c) => n + (c.added || c.removed ? c.count : 0), 0);
    expect(changed(blocks)).toBe(ref);
  });

  it('random edits: always a minimal, valid script; removed before added in each change', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let t = 0; t < 200; t++) {
      const a = Array.from({ length: rand(30) }, () => `l${rand(6)}`);
      const b = a.flatMap((l) => (rand(4) === 0 ? [] : rand(5) === 0 ? [l, `n${rand(6)}`] : [l]));
      const blocks = diffLineBlocks(a, b, Number.POSITIVE_INFINITY) ?? [];
      expect(replay(a, b, blocks)).toEqual(b);
      const ref = diffArrays(a, b).reduce((n, c) => n + (c.added || c.removed ? c.count : 0), 0);
      expect(changed(blocks)).toBe(ref);
      blocks.forEach((blk, i) => {
        if (blk.kind === 'added') expect(blocks[i + 1]?.kind).not.toBe('removed');
      });
    }
  });

  it('gives up past the deadline', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 20_000 }, (_, i) => `b${i}`);
    expect(diffLineBlocks(a, b, performance.now() - 1)).toBeUndefined();
  });

  it('compares lines by number when the comparisons pass the budget, with the same result', () => {
    let seed = 11;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let t = 0; t < 100; t++) {
      const a = Array.from({ length: rand(40) }, () => `l${rand(5)}`);
      const b = a.flatMap((l) => (rand(4) === 0 ? [] : rand(5) === 0 ? [l, `n${rand(5)}`] : [l]));
      const numbered = diffLineBlocks(a, b, Number.POSITIVE_INFINITY, { compareBudget: 0 });
      expect(numbered).toEqual(diffLineBlocks(a, b, Number.POSITIVE_INFINITY));
      expect(replay(a, b, numbered ?? [])).toEqual(b);
    }
  });

  it('numbers long lines before comparing them, with the same result', () => {
    const long = (i: number) => `${'x'.repeat(400)}${i % 7}`;
    const a = Array.from({ length: 50 }, (_, i) => long(i));
    const b = [...a.slice(0, 10), long(100), ...a.slice(12, 40), ...a.slice(41)];
    const blocks = diffLineBlocks(a, b, Number.POSITIVE_INFINITY);
    if (!blocks) throw new Error('no diff');
    expect(replay(a, b, blocks)).toEqual(b);
    const ref = diffArrays(a, b).reduce((n, c) => n + (c.added || c.removed ? c.count : 0), 0);
    expect(changed(blocks)).toBe(ref);
  });

  it('gives up past the deadline on the numbered pass too', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 20_000 }, (_, i) => `b${i}`);
    expect(diffLineBlocks(a, b, performance.now() - 1, { compareBudget: 0 })).toBeUndefined();
  });
});
