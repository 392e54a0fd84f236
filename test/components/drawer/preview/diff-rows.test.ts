import { describe, expect, it } from 'vitest';
import { displayLine, wrap } from '../../../../src/text/wrap';
import { truncateCells } from '../../../../src/text/truncate';
import { textWidth } from '../../../../src/text/width';
import { windowSegments, wordSegments } from '../../../../components/drawer/preview/diff-line';
import { foldDiff } from '../../../../components/drawer/preview/diff-fold';
import { projectView } from '../../../../components/drawer/preview/diff-project';
import {
  buildDiffModel,
  cachedDiffModel,
  type DiffLayout,
  type DiffModel,
  effectiveLayout,
  splitLines,
} from '../../../../components/drawer/preview/diff-rows';

/** The old full-row projection: every row, no folds, not scrolled sideways. */
const projectRows = (m: DiffModel, layout: DiffLayout, offset: number, height: number, width: number) =>
  projectView(m, foldDiff(m, layout, true), layout, { offset, height, width, shift: 0 });

const text = (cells: { segments: { text: string }[] }[]) =>
  cells.map((c) => c.segments.map((s) => s.text).join('')).join('|');

describe('splitLines', () => {
  it('counts lines the way diffLines does', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\r\nb')).toEqual(['a', 'b']);
    expect(splitLines('\n')).toEqual(['']);
  });
});

describe('buildDiffModel', () => {
  it('shows a new file as all added', () => {
    const m = buildDiffModel('', 'one\ntwo\n', true);
    expect(m.isNew).toBe(true);
    expect(m.added).toBe(2);
    expect(m.removed).toBe(0);
    expect(m.unified.map((r) => r.kind)).toEqual(['insert', 'insert']);
    expect(effectiveLayout(m, 'split', 200)).toBe('unified');
  });

  it('pairs a replaced block side by side and keeps context', () => {
    const m = buildDiffModel('a\nb\nc\nd\n', 'a\nB\nX\nd\n', false);
    expect(m.split.map((r) => r.kind)).toEqual(['context', 'change', 'change', 'context']);
    expect(m.unified.map((r) => r.kind)).toEqual([
      'context',
      'delete',
      'delete',
      'insert',
      'insert',
      'context',
    ]);
    expect(m.added).toBe(2);
    expect(m.removed).toBe(2);
    expect(m.hunks.split).toEqual([1]);
  });

  it('leaves unpaired lines as plain deletes and inserts', () => {
    const m = buildDiffModel('a\nb\nc\n', 'a\nB\nc\nd\ne\n', false);
    expect(m.split.map((r) => r.kind)).toEqual(['context', 'change', 'context', 'insert', 'insert']);
    const m2 = buildDiffModel('a\nb\nc\n', 'a\n', false);
    expect(m2.split.map((r) => r.kind)).toEqual(['context', 'delete', 'delete']);
  });

  it('ignores a missing newline at the end of the file', () => {
    const m = buildDiffModel('a\nb', 'a\nb\n', false);
    expect(m.added + m.removed).toBe(0);
  });

  it('a diff that takes too long becomes a whole replacement', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `a${i % 97} ${i * 7}`).join('\n');
    const b = Array.from({ length: 20_000 }, (_, i) => `b${i % 89} ${i * 3}`).join('\n');
    const m = buildDiffModel(a, b, false, 1);
    expect(m.approximate).toBe(true);
    expect(m.removed).toBe(20_000);
    expect(m.added).toBe(20_000);
    expect(m.split.every((r) => r.kind === 'change')).toBe(true);
  });

  it('is built once per key', () => {
    const a = cachedDiffModel('req-1:h', 'a\n', 'b\n', false);
    expect(cachedDiffModel('req-1:h', 'a\n', 'b\n', false)).toBe(a);
    expect(cachedDiffModel('req-1:h', 'a\n', 'bb\n', false)).not.toBe(a);
  });
});

describe('wordSegments', () => {
  it('highlights only the differing words of a changed pair', () => {
    const w = wordSegments('const a = 1;', 'const b = 1;');
    expect(w.old.filter((s) => s.changed).map((s) => s.text)).toEqual(['a']);
    expect(w.new.filter((s) => s.changed).map((s) => s.text)).toEqual(['b']);
    expect(w.old.map((s) => s.text).join('')).toBe('const a = 1;');
  });
});

describe('projectRows', () => {
  it('side by side: line numbers, word highlights, counts outside the view', () => {
    const before = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    const after = before.replace('line 50\n', 'line fifty\n');
    const m = buildDiffModel(before, after, false);
    const p = projectRows(m, 'split', 45, 10, 120);
    expect(p.rows).toHaveLength(10);
    expect(p.above).toBe(45);
    expect(p.below).toBe(45);
    const changed = p.rows.find((r) => r.kind === 'split' && r.cells[0].tone === 'removed');
    if (changed?.kind !== 'split') throw new Error('no changed row');
    expect(changed.cells[0].no).toBe(50);
    expect(changed.cells[0].marker).toBe('-');
    expect(changed.cells[1].marker).toBe('+');
    expect(changed.cells[1].segments.find((s) => s.changed)?.text).toBe('fifty');
  });

  it('renders only the visible rows of a 5 MB file', () => {
    const big = Array.from({ length: 100_000 }, (_, i) => `row ${i} ${'x'.repeat(40)}`).join('\n');
    expect(big.length).toBeGreaterThan(5_000_000);
    const m = buildDiffModel(big, big.replace('row 70000 ', 'row SEVENTY '), false);
    const p = projectRows(m, 'split', 69_990, 20, 140);
    expect(p.rows).toHaveLength(20);
    expect(p.total).toBe(100_000);
    expect(p.above + p.rows.length + p.below).toBe(100_000);
    const nf = buildDiffModel('', big, true);
    expect(projectRows(nf, 'unified', 0, 30, 80).rows).toHaveLength(30);
  });

  it('clamps the offset at both ends', () => {
    const m = buildDiffModel('', 'a\nb\nc\n', true);
    expect(projectRows(m, 'unified', 99, 2, 80).above).toBe(1);
    expect(projectRows(m, 'unified', -5, 2, 80).above).toBe(0);
  });

  it('truncates long lines to the column with an ellipsis and expands tabs', () => {
    const m = buildDiffModel('', `\tx${'y'.repeat(300)}\n`, true);
    const p = projectRows(m, 'unified', 0, 5, 60);
    const row = p.rows[0];
    const shown = text(row?.kind === 'unified' ? [row.cell] : []);
    expect(textWidth(shown)).toBe(p.colWidth);
    expect(shown.startsWith('    xy')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
  });
});

describe('text helpers', () => {
  it('makes control characters visible', () => {
    expect(displayLine('a\u001b[2Jb')).toBe('a\u241b[2Jb');
  });
  it('fits segments to an exact width', () => {
    const s = windowSegments([{ text: 'abc', changed: true }], 6);
    expect(s.map((x) => x.text).join('')).toBe('abc   ');
    expect(
      windowSegments([{ text: 'abcdefgh', changed: false }], 4)
        .map((x) => x.text)
        .join(''),
    ).toBe('abc…');
  });
  it('truncates and wraps', () => {
    expect(truncateCells('hello world', 5)).toBe('hell…');
    expect(wrap('abcdefgh', 3)).toEqual(['abc', 'def', 'gh']);
    expect(wrap('abcdefgh', 3, 2)).toEqual(['abc', 'de…']);
  });
});
