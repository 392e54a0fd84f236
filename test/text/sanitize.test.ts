import { describe, expect, it } from 'vitest';
import { hasUnsafeText, sanitizeSameLength, sanitizeText } from '../../src/text/sanitize';
import { sanitizeDeep } from '../../src/text/sanitize-deep';
import { BENIGN_TEXT, SEQUENCE_CASES } from './sequences';

/** Anything that can drive a terminal or hide text; none may survive sanitising. */
export const RAW_UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]|\udb40[\udc00-\udc7f]/;

describe('sanitizeText (display)', () => {
  it.each(SEQUENCE_CASES)('$name', ({ input, shown }) => {
    const out = sanitizeText(input);
    expect(out).toBe(shown);
    expect(out).not.toMatch(RAW_UNSAFE);
    expect(hasUnsafeText(input)).toBe(out !== input);
  });

  it.each(BENIGN_TEXT)('leaves benign text alone: %j', (text) => {
    expect(sanitizeText(text)).toBe(text);
    expect(hasUnsafeText(text)).toBe(false);
  });

  it('is idempotent', () => {
    for (const { input } of SEQUENCE_CASES) {
      const once = sanitizeText(input);
      expect(sanitizeText(once)).toBe(once);
    }
  });

  it('handles every code unit from 0 to 0xFFFF without leaving a raw control', () => {
    let all = '';
    for (let c = 0; c <= 0xffff; c++) if (c < 0xd800 || c > 0xdfff) all += String.fromCharCode(c);
    expect(sanitizeText(all)).not.toMatch(RAW_UNSAFE);
    expect(sanitizeText(all, 'exact')).not.toMatch(RAW_UNSAFE);
  });
});

describe('sanitizeText (exact)', () => {
  it('keeps colour codes visible instead of dropping them', () => {
    expect(sanitizeText('\u001b[31mred\u001b[0m', 'exact')).toBe('␛[31mred␛[0m');
  });

  it('shows a CR of a CRLF file', () => {
    expect(sanitizeText('a\r\nb', 'exact')).toBe('a␍\nb');
  });

  it.each(SEQUENCE_CASES)('$name leaves nothing raw', ({ input }) => {
    expect(sanitizeText(input, 'exact')).not.toMatch(RAW_UNSAFE);
  });
});

describe('sanitizeSameLength', () => {
  it.each(SEQUENCE_CASES)('$name: same length, nothing raw', ({ input }) => {
    const out = sanitizeSameLength(input);
    expect(out.length).toBe(input.length);
    expect(out).not.toMatch(RAW_UNSAFE);
  });
});

describe('sanitizeDeep', () => {
  it('returns the same object when nothing changes', () => {
    const value = { a: ['x', { b: 'y' }], n: 1, t: true, z: null };
    expect(sanitizeDeep(value)).toBe(value);
  });

  it('copies only the changed branch, keys included', () => {
    const clean = { keep: 'ok' };
    const value = { clean, dirty: { ['k\u001b]0;t\u0007']: ['\u001b[2J'] } };
    const out = sanitizeDeep(value);
    expect(out).not.toBe(value);
    expect(out.clean).toBe(clean);
    expect(out.dirty).toEqual({ 'k␛]0;t␇': ['␛[2J'] });
    expect(value.dirty).toEqual({ ['k\u001b]0;t\u0007']: ['\u001b[2J'] });
  });

  it('long strings (the cached path) are sanitised every time they are seen', () => {
    const long = `${'x'.repeat(300)}\u001b]52;c;eA==\u0007`;
    for (let i = 0; i < 3; i++) expect(sanitizeDeep({ long }).long).toBe(`${'x'.repeat(300)}␛]52;c;eA==␇`);
    expect(sanitizeDeep({ long }, 'exact').long).toBe(`${'x'.repeat(300)}␛]52;c;eA==␇`);
    const clean = 'y'.repeat(300);
    const value = { clean };
    expect(sanitizeDeep(value)).toBe(value);
    expect(sanitizeDeep(value)).toBe(value);
  });

  it('keeps a __proto__ key as data', () => {
    const value = JSON.parse('{"__proto__": {"x": "\\u001b[2J"}}') as Record<string, unknown>;
    const out = sanitizeDeep(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ x: '␛[2J' });
  });

  it('summarises nesting deeper than it walks instead of passing it raw', () => {
    let deep: unknown = '\u001b]52;c;eA==\u0007';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(JSON.stringify(sanitizeDeep(deep))).not.toMatch(/\\u001b|\\u0007/);
  });
});
