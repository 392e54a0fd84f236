import { describe, expect, it } from 'vitest';
import {
  mergeTokens,
  type Segment,
  windowSegments,
  windowStart,
  wordSegments,
} from '../../../../components/drawer/preview/diff-line';
import { textWidth } from '../../../../src/text/width';

const shown = (s: Segment[]) => s.map((x) => x.text).join('');
const changed = (s: Segment[]) =>
  s
    .filter((x) => x.changed)
    .map((x) => x.text)
    .join('');

describe('wordSegments', () => {
  it.each([
    { old: 'const a = 1;', neu: 'const b = 1;', gone: 'a', added: 'b' },
    { old: 'foo(bar)', neu: 'foo(baz)', gone: 'bar', added: 'baz' },
    { old: 'x', neu: 'x y', gone: '', added: ' y' },
    { old: 'été = 1', neu: 'ete = 1', gone: 'été', added: 'ete' },
  ])('$old → $neu', ({ old, neu, gone, added }) => {
    const w = wordSegments(old, neu);
    expect(shown(w.old)).toBe(old);
    expect(shown(w.new)).toBe(neu);
    expect(changed(w.old)).toBe(gone);
    expect(changed(w.new)).toBe(added);
  });

  it('finds a rename deep in a 60,000-character minified line', () => {
    const head = 'a=1;'.repeat(12_000);
    const w = wordSegments(`${head}var oldName=2;${head}`, `${head}var newName=2;${head}`);
    expect(changed(w.old)).toBe('oldName=2;'.slice(0, 7));
    expect(changed(w.new)).toBe('newName');
  });
});

describe('windowSegments', () => {
  const minified = (name: string) => `${'x=1;'.repeat(275)}${name}=2;${'y=3;'.repeat(200)}`;

  it.each([60, 30, 12])(
    'a change at column 1,100 of a minified line shows on both sides at width %i',
    (width) => {
      const w = wordSegments(minified('oldName'), minified('newName'));
      const left = windowSegments(w.old, width);
      const right = windowSegments(w.new, width);
      for (const [side, name] of [
        [left, 'oldName'],
        [right, 'newName'],
      ] as const) {
        expect(textWidth(shown(side))).toBe(width);
        expect(shown(side).startsWith('…')).toBe(true);
        expect(shown(side).endsWith('…')).toBe(true);
        expect(changed(side)).toBe(
          name.slice(0, Math.min(name.length, width - 2 - Math.min(8, Math.floor(width / 4)))),
        );
      }
      // Both sides cut at the same column: they stay aligned.
      expect(shown(left).slice(0, 4)).toBe(shown(right).slice(0, 4));
    },
  );

  it('a changed tail past a 140-column split column stays visible', () => {
    // 140 columns side by side leave about 62 cells a side.
    const old = `    // step 15: ${'the quick brown fox jumps over '.repeat(2)}the dog`;
    const w = wordSegments(old, `${old} (fixed)`);
    const right = windowSegments(w.new, 62);
    expect(shown(right)).toContain('(fixed)');
    expect(shown(right).startsWith('…')).toBe(true);
    // Unchanged, the same line is simply cut at the end.
    expect(shown(windowSegments([{ text: old, changed: false }], 62)).endsWith('…')).toBe(true);
  });

  it('a change that fits is shown from the line start', () => {
    const w = wordSegments('abc def ghi jkl mno', 'abc DEF ghi jkl mno');
    expect(shown(windowSegments(w.new, 10))).toBe('abc DEF g…');
  });

  it('wide characters and a shift: never wider than the column, cut ends marked', () => {
    const s = windowSegments([{ text: '漢字漢字漢字漢字', changed: false }], 7, 3);
    expect(textWidth(shown(s))).toBe(7);
    expect(shown(s).startsWith('…')).toBe(true);
    expect(shown(s).endsWith('…')).toBe(true);
  });

  it('scrolling sideways moves unchanged text but never past a change', () => {
    const line = `${'a'.repeat(50)} CHANGE ${'b'.repeat(200)}`;
    const segs: Segment[] = [
      { text: 'a'.repeat(50), changed: false },
      { text: ' CHANGE', changed: true },
      { text: ` ${'b'.repeat(200)}`, changed: false },
    ];
    expect(shown(windowSegments(segs, 30, 0))).toContain('CHA');
    expect(shown(windowSegments(segs, 30, 40))).toContain('CHANGE');
    // Past the change the window comes back to it.
    expect(shown(windowSegments(segs, 30, 150))).toContain('CHANGE');
    expect(shown(windowSegments([{ text: line, changed: false }], 30, 150))).not.toContain('CHANGE');
  });

  it('windowStart picks the first change at or after the shift', () => {
    const ranges: [number, number][] = [
      [100, 104],
      [300, 310],
    ];
    expect(windowStart(ranges, 400, 40, 0)).toBe(92);
    expect(windowStart(ranges, 400, 40, 200)).toBe(292);
    expect(windowStart(ranges, 400, 40, 95)).toBe(95);
    expect(windowStart([], 10, 40, 5)).toBe(0);
  });
});

describe('mergeTokens', () => {
  it('splits changed words at token edges and keeps both marks', () => {
    const out = mergeTokens(
      [
        { text: 'const ', changed: false },
        { text: 'a', changed: true },
        { text: ' = 1', changed: false },
      ],
      [{ text: 'const', token: 'keyword' }, { text: ' a = ' }, { text: '1', token: 'number' }],
    );
    expect(out).toEqual([
      { text: 'const', changed: false, token: 'keyword' },
      { text: ' ', changed: false },
      { text: 'a', changed: true },
      { text: ' = ', changed: false },
      { text: '1', changed: false, token: 'number' },
    ]);
  });
});
