import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatDurationCoarse,
  formatDurationCompact,
  formatMsOrSeconds,
  formatSecondsTenths,
} from '../../src/text/duration';
import { displayLine, expandTabs, fit, wrap } from '../../src/text/wrap';

describe('duration formats: one named function per pinned format', () => {
  it.each([
    [-5, '0s'],
    [12_900, '12s'],
    [3 * 60_000 + 59_000, '3m'],
    [2 * 3_600_000 + 1, '2h'],
  ])('formatDurationCoarse(%i) → %s', (ms, shown) => expect(formatDurationCoarse(ms)).toBe(shown));

  it.each([
    [null, '–'],
    [undefined, '–'],
    [850, '850ms'],
    [1000, '1s'],
    [1234, '1.2s'],
    [65_000, '1m05s'],
    [90_000, '1m30s'],
  ])('formatDurationCompact(%s) → %s', (ms, shown) => expect(formatDurationCompact(ms)).toBe(shown));

  it.each([
    [300, '0.3 s'],
    [1000, '1.0 s'],
    [9_949, '9.9 s'],
    [12_400, '12 s'],
  ])('formatSecondsTenths(%i) → %s', (ms, shown) => expect(formatSecondsTenths(ms)).toBe(shown));

  it.each([
    [850, '850 ms'],
    [1000, '1 s'],
    [1499, '1 s'],
    [120_000, '120 s'],
  ])('formatMsOrSeconds(%i) → %s', (ms, shown) => expect(formatMsOrSeconds(ms)).toBe(shown));

  it('formatAge counts back from now, "?" for an unreadable time', () => {
    const now = Date.parse('2024-01-01T00:10:00Z');
    expect(formatAge('2024-01-01T00:09:48Z', now)).toBe('12s');
    expect(formatAge('2024-01-01T00:00:00Z', now)).toBe('10m');
    expect(formatAge('not a date', now)).toBe('?');
  });
});

describe('wrap helpers', () => {
  it.each([
    ['a\tb', 'a   b'],
    ['abcd\te', 'abcd    e'],
    ['中\tx', '中  x'],
  ])('expandTabs(%j) → %j', (text, shown) => expect(expandTabs(text)).toBe(shown));

  it('displayLine turns newlines to spaces and shows unsafe characters', () => {
    expect(displayLine('a\nb\r\nc')).toBe('a b c');
    expect(displayLine('x\u202Ey')).not.toContain('\u202E');
    expect(displayLine('\x1b[2J')).not.toContain('\x1b');
  });

  it.each([
    ['ab', 4, 'ab  '],
    ['abcdef', 4, 'abc…'],
    ['中文字', 5, '中文…'],
  ])('fit(%j, %i) → %j', (text, width, shown) => expect(fit(text, width)).toBe(shown));

  it.each([
    ['one two three', 8, Number.POSITIVE_INFINITY, ['one two', 'three']],
    // A word keeps its trailing space, so "two " does not fit after "one " in 7 cells.
    ['one two three', 7, Number.POSITIVE_INFINITY, ['one', 'two', 'three']],
    ['abcdefgh', 3, Number.POSITIVE_INFINITY, ['abc', 'def', 'gh']],
    ['a\nb', 5, Number.POSITIVE_INFINITY, ['a', 'b']],
    ['one two three four', 4, 2, ['one', 'two…']],
  ])('wrap(%j, %i, %s)', (text, width, max, lines) => expect(wrap(text, width, max)).toEqual(lines));
});
