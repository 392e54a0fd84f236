import { textWidth } from '../../src/text/width';
import { wrap } from '../../src/text/wrap';
import type { Align } from './markdown-blocks';

const SEP = ' │ ';
const MIN_COL = 3;

/** A table laid out in terminal cells: the header's lines, a rule, then each row's lines. */
export type TableLayout = { header: string[]; rule: string; rows: string[][] };

/**
 * Column widths that fit `width`: each column as wide as its widest cell, then the widest column
 * narrowed one cell at a time until the row fits (cells wrap instead of being cut, so nothing a
 * table says is hidden). Columns never go under MIN_COL; a table too wide even then overflows.
 */
export function columnWidths(cells: readonly (readonly string[])[], width: number): number[] {
  const cols = Math.max(0, ...cells.map((r) => r.length));
  const widths = Array.from({ length: cols }, (_, c) =>
    Math.max(1, ...cells.map((r) => Math.max(0, ...(r[c] ?? '').split('\n').map(textWidth)))),
  );
  const budget = width - SEP.length * Math.max(0, cols - 1);
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > budget) {
    let widest = 0;
    for (let c = 1; c < cols; c++) if ((widths[c] ?? 0) > (widths[widest] ?? 0)) widest = c;
    if ((widths[widest] ?? 0) <= MIN_COL) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
    total -= 1;
  }
  return widths;
}

function pad(text: string, width: number, align: Align): string {
  const gap = Math.max(0, width - textWidth(text));
  if (align === 'right') return ' '.repeat(gap) + text;
  if (align === 'center') return ' '.repeat(Math.floor(gap / 2)) + text + ' '.repeat(Math.ceil(gap / 2));
  return text + ' '.repeat(gap);
}

/** One table row as physical lines: each cell wrapped to its column, the row as tall as its tallest cell. */
function rowLines(cells: readonly string[], widths: readonly number[], align: readonly Align[]): string[] {
  const wrapped = widths.map((w, c) => wrap(cells[c] ?? '', w));
  const height = Math.max(1, ...wrapped.map((l) => l.length));
  const lines: string[] = [];
  for (let i = 0; i < height; i++)
    lines.push(
      widths
        .map((w, c) => pad(wrapped[c]?.[i] ?? '', w, align[c] ?? 'left'))
        .join(SEP)
        .trimEnd(),
    );
  return lines;
}

/** The table laid out for `width` cells. Pure. */
export function layoutTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[],
  width: number,
): TableLayout {
  const widths = columnWidths([header, ...rows], width);
  return {
    header: rowLines(header, widths, align),
    rule: widths.map((w) => '─'.repeat(w)).join('─┼─'),
    rows: rows.map((r) => rowLines(r, widths, align)),
  };
}
