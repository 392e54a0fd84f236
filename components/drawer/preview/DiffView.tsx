import { Box, Text } from 'ink';
import { memo, useEffect, useState } from 'react';
import { truncateCells } from '../../../src/text/truncate';
import { nameLine } from '../../../src/text/wrap';
import { type HighlightBudget, highlightLine, languageFor } from '../../highlight/highlight';
import { useHighlighter } from '../../highlight/use-highlighter';
import { useTheme } from '../../look/use-theme';
import { CARD_KEYS } from '../../keys/keymap';
import type { Theme } from '../../look/theme';
import { ApprovalScrollCounts } from './ApprovalScrollCounts';
import type { FoldedDiff } from './diff-fold';
import { DiffRow, type ToneColors } from './DiffRow';
import { type LineHighlighter, projectView } from './diff-project';
import type { DiffLayout, DiffModel } from './diff-rows';

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

type Colors = ToneColors;

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
  const ready = useHighlighter(!theme.noColor, props.path);
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
    // Clipped top and bottom only: every row is already cut to the width (truncate-end, cells
    // windowed to their column), and a box clipped sideways makes Ink re-slice every line of every
    // frame with slice-ansi (a grapheme segmenter): a quarter of a key's time.
    <Box flexDirection="column" width={width} height={props.height} overflowY="hidden">
      <Text wrap="truncate-end">
        <Text bold>
          {truncateCells(nameLine(props.path), Math.max(8, width - summary.length - where.length - 16))}
        </Text>
        <Text color={model.isNew ? colors.added : undefined}> {summary}</Text>
        <Text dimColor>{mode}</Text>
        <Text>{where}</Text>
      </Text>
      {view.rows.map((row, i) => (
        // Keyed by place in the file modulo the window: a scroll by one line moves one row from one
        // end to the other and redraws only it (rows are memoised); a jump redraws rows in place
        // instead of building new ones.
        <DiffRow
          key={(view.above + i) % body}
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
