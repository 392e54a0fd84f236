import { Box, Text } from 'ink';
import { memo, type ReactNode } from 'react';
import { TOKEN_COLORS } from '../../highlight/highlight';
import type { Segment } from './diff-line';
import type { Cell, Tone, VisibleRow } from './diff-project';
import { gutterText } from './diff-rows';

/** Colours of the tones (none for context and blanks; none at all under NO_COLOR). */
export type ToneColors = Record<Tone, string | undefined>;

type DiffRowProps = {
  row: VisibleRow;
  gutter: number;
  gutters: 1 | 2;
  colors: ToneColors;
  color: boolean;
};

/**
 * One row; few nodes per row: Ink's cost grows with nodes, and a view may hold 100 rows. Memoised
 * on what it shows (rows are keyed by their place in the file): a scroll by one line draws one new
 * row and leaves the others alone.
 */
export const DiffRow = memo(function DiffRow(props: DiffRowProps) {
  const { row, gutter, colors } = props;
  if (row.kind === 'fold') {
    const label = `⋯ ${row.count} unchanged ${row.count === 1 ? 'line' : 'lines'}`;
    return (
      <Text dimColor wrap="truncate-end">
        {`${' '.repeat(gutter)} ${label}`}
      </Text>
    );
  }
  if (row.kind === 'split') {
    const [left, right] = row.cells;
    // The divider is a text of its own: a line with one box-drawing character in it takes string-width's
    // slow path (a grapheme segmenter, ~100 µs a row for every measure of every frame), while each
    // half, plain code, stays on its ASCII fast path (~1 µs).
    return (
      <Box>
        <Box flexShrink={0}>
          <Text>
            <Text dimColor>{`${gutterText(left.no, gutter)} `}</Text>
            {cellText(left, colors, props.color)}
          </Text>
        </Box>
        <Box flexShrink={0}>
          <Text dimColor>{' │ '}</Text>
        </Box>
        <Text wrap="truncate-end">
          <Text dimColor>{`${gutterText(right.no, gutter)} `}</Text>
          {cellText(right, colors, props.color)}
        </Text>
      </Box>
    );
  }
  const numbers =
    props.gutters === 2
      ? `${gutterText(row.oldNo, gutter)} ${gutterText(row.newNo, gutter)} `
      : `${gutterText(row.newNo, gutter)} `;
  return (
    <Text wrap="truncate-end">
      <Text dimColor>{numbers}</Text>
      {cellText(row.cell, colors, props.color)}
    </Text>
  );
}, sameRowProps);

/** Props that draw the same row: the same numbers, tones, markers and segments. */
function sameRowProps(a: DiffRowProps, b: DiffRowProps): boolean {
  return (
    a.gutter === b.gutter &&
    a.gutters === b.gutters &&
    a.color === b.color &&
    a.colors.context === b.colors.context &&
    a.colors.removed === b.colors.removed &&
    a.colors.added === b.colors.added &&
    a.colors.empty === b.colors.empty &&
    sameRow(a.row, b.row)
  );
}

function sameRow(a: VisibleRow, b: VisibleRow): boolean {
  if (a.kind === 'fold') return b.kind === 'fold' && a.count === b.count;
  if (a.kind === 'split')
    return b.kind === 'split' && sameCell(a.cells[0], b.cells[0]) && sameCell(a.cells[1], b.cells[1]);
  return b.kind === 'unified' && a.oldNo === b.oldNo && a.newNo === b.newNo && sameCell(a.cell, b.cell);
}

function sameCell(a: Cell, b: Cell): boolean {
  if (a.no !== b.no || a.tone !== b.tone || a.marker !== b.marker) return false;
  if (a.segments.length !== b.segments.length) return false;
  for (let i = 0; i < a.segments.length; i++) {
    const x = a.segments[i] as Segment;
    const y = b.segments[i] as Segment;
    if (x.text !== y.text || x.changed !== y.changed || x.token !== y.token) return false;
  }
  return true;
}

/**
 * A cell: its marker then its text. Plain (no grammar yet): the whole cell in its tone's colour.
 * Highlighted: tokens in their colours, the marker and changed words in the tone's colour.
 * Changed words are inverse either way, so they stand out without colour too.
 */
function cellText(cell: Cell, colors: ToneColors, highlighted: boolean): ReactNode {
  const tone = colors[cell.tone];
  const prefix = `${cell.marker} `;
  const parts = merged(cell.segments).map((s, i) => {
    // Segments have no identity beyond their position in the line.
    if (s.changed)
      return (
        <Text key={i} inverse bold color={tone}>
          {s.text}
        </Text>
      );
    const color = highlighted && s.token ? TOKEN_COLORS[s.token] : undefined;
    return color ? (
      <Text key={i} color={color}>
        {s.text}
      </Text>
    ) : (
      s.text
    );
  });
  if (!tone && !cell.segments.some((s) => s.changed) && !highlighted)
    return prefix + cell.segments.map((s) => s.text).join('');
  if (highlighted)
    return (
      <>
        <Text color={tone}>{prefix}</Text>
        {parts}
      </>
    );
  return (
    <Text color={tone}>
      {prefix}
      {parts}
    </Text>
  );
}

/** Adjacent segments that look the same become one node. */
function merged(segments: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if (last && last.changed === s.changed && last.token === s.token) last.text += s.text;
    else out.push({ ...s });
  }
  return out;
}
