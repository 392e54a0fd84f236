import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashArgs, hashContent } from '../../src/gate/hash';

/** The reference: JSON.stringify with a replacer that rebuilds every plain object from sorted entries. */
function reference(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

const CASES: unknown[] = [
  {},
  [],
  { path: 'src/a.ts', content: 'x' },
  { content: 'x', path: 'src/a.ts' },
  { b: 1, a: { d: [1, { z: 1, y: 2 }, null], c: 'é\u2028"\\' } },
  { 10: 'ten', 2: 'two', b: 'b', a: 'a', '01': 'zero-one', '-1': 'minus' },
  { when: new Date(0), n: Number.NaN, inf: -Infinity, neg: -0, big: 1e21, small: 1e-7 },
  { gone: undefined, fn: () => 1, sym: Symbol('s'), kept: [undefined, () => 1] },
  { nested: { toJSON: (key: string) => `json of ${key}` } },
  'text',
  42,
  true,
  null,
  [{ b: 1, a: 2 }, [{ d: 1, c: 2 }]],
  { unicode: { é: 1, e: 2, Z: 3, _: 4, '': 5 } },
];

describe('canonicalJson', () => {
  it.each(CASES.map((c) => [reference(c), c]))(
    'matches the sorted-replacer reference: %s',
    (expected, value) => {
      expect(canonicalJson(value)).toBe(expected);
    },
  );

  it('key order does not change the hash; values do', () => {
    expect(hashArgs({ a: 1, b: { c: 2, d: 3 } })).toBe(hashArgs({ b: { d: 3, c: 2 }, a: 1 }));
    expect(hashArgs({ a: 1 })).not.toBe(hashArgs({ a: '1' }));
    expect(hashArgs({ a: [1, 2] })).not.toBe(hashArgs({ a: [2, 1] }));
  });

  it('bigints throw, as JSON.stringify does', () => {
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });

  it('hashes are sha256 hex, 32 characters', () => {
    const text = reference({ b: 1, a: 2 });
    expect(hashArgs({ b: 1, a: 2 })).toBe(createHash('sha256').update(text).digest('hex').slice(0, 32));
    expect(hashArgs(undefined)).toBe(createHash('sha256').update('undefined').digest('hex').slice(0, 32));
    expect(hashContent(Buffer.from('abc'))).toBe(
      createHash('sha256').update('abc').digest('hex').slice(0, 32),
    );
    expect(hashContent(undefined)).toBe('absent');
  });
});
