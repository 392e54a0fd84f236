import { Box, Text } from 'ink';
import { memo, type ReactNode, useEffect, useState } from 'react';
import { truncateCells } from '../../../src/text/truncate';
import { type HighlightBudget, highlightLine, languageFor, TOKEN_COLORS } from '../../highlight/highlight';
import { useHighlighter } from '../../highlight/use-highlighter';
import { useTheme } from '../../hooks/use-theme';
import { CARD_KEYS } from '../../keys/keymap';
import type { Theme } from '../../theme';
import { ApprovalScrollCounts } from './ApprovalScrollCounts';
import type { Segment } from './diff-line';
import type { FoldedDiff } from './diff-fold';
import { type Cell, type LineHighlighter, projectView, type Tone, type VisibleRow } from './diff-project';
import { type DiffLayout, type DiffModel, gutterText } from './diff-rows';

export type DiffViewProps = {
  path: string;
  model: DiffModel;
  folded: FoldedDiff;
  layout: DiffLayout;
  offset: number;
  width: number;
  /** Rows available, including the header and the count line. */
  height: number;
  /** The change in view (header "change 2 of 3 · line 1000"). */
  change?: number;
  /** Cells long lines are scrolled sideways. */
  shift?: number;
  /** Every unchanged line is shown (the hint offers to fold them again). */
  unfolded?: boolean;
  /** False for a view without keys (the transcript, a review list): the count line has no key hints. */
  hint?: false;
};

type Colors = Record<Tone, string | undefined>;

/** Milliseconds of highlighting a frame may spend. */
const HIGHLIGHT_MS = 4;

function toneColors(theme: Theme): Colors {
  return { context: undefined, removed: theme.error, added: theme.ok, empty: undefined };
}

/**
 * Old | new (or unified) view of a file write, folded to its changes: each row carries its line
 * numbers and a `-`/`+` marker, changed words are inverse, and (once the grammars have loaded,
 * never under NO_COLOR) the code is highlighted. Renders only the rows in view; memoised so the
 * drawer's once-a-second age tick does not redraw it.
 */
export const DiffView = memo(function DiffView(props: DiffViewProps) {
  const { model, folded, layout, width } = props;
  const theme = useTheme();
  const colors = toneColors(theme);
  const ready = useHighlighter(!theme.noColor);
  const lang = ready ? languageFor(props.path) : undefined;
  // Highlighting gets a few milliseconds a frame, so a key is never slow: rows it did not reach show
  // plain, and the view draws again at once to colour them.
  const [, redraw] = useState(0);
  const budget: HighlightBudget = { until: performance.now() + HIGHLIGHT_MS, missed: false };
  useEffect(() => {
    if (!budget.missed) return;
    const again = setTimeout(() => redraw((n) => n + 1), 0);
    return () => clearTimeout(again);
  });
  const highlight: LineHighlighter | undefined = lang
    ? (line) => highlightLine(lang, line, budget)
    : undefined;
  const body = Math.max(1, props.height - 2);
  const view = projectView(
    model,
    folded,
    layout,
    { offset: props.offset, height: body, width, shift: props.shift ?? 0 },
    highlight,
  );
  const count = folded.changes.length;
  const at = Math.min(props.change ?? 0, Math.max(0, count - 1));
  const where =
    count === 0
      ? ''
      : count === 1
        ? ` · 1 change · line ${folded.changeLines[0]}`
        : ` · change ${at + 1} of ${count} · line ${folded.changeLines[at]}`;
  const summary = model.isNew
    ? `new file · ${model.added} lines`
    : `+${model.added} −${model.removed}${model.approximate ? ' · too different to align, shown as a replacement' : ''}`;
  const mode = model.isNew ? '' : layout === 'split' ? ' · side by side' : ' · unified';
  const keys = [
    count > 1 ? `${CARD_KEYS.next_change.show} change` : '',
    folded.hidden > 0
      ? `${CARD_KEYS.toggle_folds.show} unfold`
      : props.unfolded
        ? `${CARD_KEYS.toggle_folds.show} fold`
        : '',
    props.shift ? `→ ${props.shift} columns` : '',
    'j/k PgUp/PgDn',
  ].filter(Boolean);
  const hint = props.hint === false ? undefined : keys.join(' · ');
  return (
    <Box flexDirection="column" width={width} height={props.height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>{truncateCells(props.path, Math.max(8, width - summary.length - where.length - 16))}</Text>
        <Text color={model.isNew ? colors.added : undefined}> {summary}</Text>
        <Text dimColor>{mode}</Text>
        <Text>{where}</Text>
      </Text>
      {view.rows.map((row, i) => (
        // Rows have no identity beyond their position in the window.
        <DiffRow
          key={view.above + i}
          row={row}
          gutter={view.gutter}
          gutters={view.gutters}
          colors={colors}
          color={!!highlight}
        />
      ))}
      <ApprovalScrollCounts above={view.linesAbove} below={view.linesBelow} hint={hint} />
    </Box>
  );
});

/** One row; few nodes per row: Ink's cost grows with nodes, and a view may hold 100 rows. */
function DiffRow(props: { row: VisibleRow; gutter: number; gutters: 1 | 2; colors: Colors; color: boolean }) {
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
    return (
      <Text wrap="truncate-end">
        <Text dimColor>{`${gutterText(left.no, gutter)} `}</Text>
        {cellText(left, colors, props.color)}
        <Text dimColor>{` │ ${gutterText(right.no, gutter)} `}</Text>
        {cellText(right, colors, props.color)}
      </Text>
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
}

/**
 * A cell: its marker then its text. Plain (no grammar yet): the whole cell in its tone's colour.
 * Highlighted: tokens in their colours, the marker and changed words in the tone's colour.
 * Changed words are inverse either way, so they stand out without colour too.
 */
function cellText(cell: Cell, colors: Colors, highlighted: boolean): ReactNode {
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
