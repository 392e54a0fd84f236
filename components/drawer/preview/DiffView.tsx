import { Box, Text } from 'ink';
import { memo } from 'react';
import { ApprovalScrollCounts } from './ApprovalScrollCounts';
import { truncateCells } from '../../../src/text/truncate';
import { type Cell, type DiffLayout, type DiffModel, gutterText, projectRows, type Tone } from './diff-rows';
import type { Theme } from '../../theme';
import { useTheme } from '../../hooks/use-theme';

export type DiffViewProps = {
  path: string;
  model: DiffModel;
  layout: DiffLayout;
  offset: number;
  width: number;
  /** Rows available, including the header and the count line. */
  height: number;
};

function toneColors(theme: Theme): Record<Tone, string | undefined> {
  return { context: undefined, removed: theme.error, added: theme.ok, empty: undefined };
}

/**
 * Old | new (or unified) view of a file write. Renders only the rows in view; memoised so the
 * drawer's once-a-second age tick does not redraw it.
 */
export const DiffView = memo(function DiffView(props: DiffViewProps) {
  const { model, layout, width } = props;
  const colors = toneColors(useTheme());
  const body = Math.max(1, props.height - 2);
  const view = projectRows(model, layout, props.offset, body, width);
  const summary = model.isNew
    ? `new file · ${model.added} lines`
    : `+${model.added} −${model.removed}${model.approximate ? ' · too different to align, shown as a replacement' : ''}`;
  const mode = model.isNew ? '' : layout === 'split' ? ' · side by side' : ' · unified';
  return (
    <Box flexDirection="column" width={width} height={props.height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>{truncateCells(props.path, Math.max(8, width - summary.length - 14))}</Text>
        <Text color={model.isNew ? colors.added : undefined}> {summary}</Text>
        <Text dimColor>{mode}</Text>
      </Text>
      {view.rows.map((row, i) => {
        const key = view.above + i;
        // Few nodes per row: Ink's cost grows with nodes, and a view may hold 100 rows.
        if (row.sign === undefined) {
          const [left, right] = row.cells;
          return (
            <Text key={key} wrap="truncate-end">
              <Text dimColor>{`${gutterText(left?.no, view.gutter)} `}</Text>
              {left ? segmentsText(left, colors) : null}
              <Text dimColor>{` │ ${gutterText(right?.no, view.gutter)} `}</Text>
              {right ? segmentsText(right, colors) : null}
            </Text>
          );
        }
        const [cell] = row.cells;
        const numbers =
          view.gutters === 2
            ? `${gutterText(row.oldNo, view.gutter)} ${gutterText(row.newNo, view.gutter)} `
            : `${gutterText(row.newNo, view.gutter)} `;
        return (
          <Text key={key} wrap="truncate-end">
            <Text dimColor>{numbers}</Text>
            {cell ? segmentsText(cell, colors, `${row.sign} `) : null}
          </Text>
        );
      })}
      <ApprovalScrollCounts above={view.above} below={view.below} hint="j/k PgUp/PgDn" />
    </Box>
  );
});

/** Changed words of a changed pair are shown inverse, so they stand out without colour too. */
function segmentsText(cell: Cell, colors: Record<Tone, string | undefined>, prefix = '') {
  const color = colors[cell.tone];
  const parts = cell.segments.map((s, i) =>
    s.changed ? (
      // Segments have no identity beyond their position in the line.
      <Text key={i} inverse bold>
        {s.text}
      </Text>
    ) : (
      s.text
    ),
  );
  if (!color) return prefix + cell.segments.map((s) => s.text).join('');
  return (
    <Text color={color}>
      {prefix}
      {parts}
    </Text>
  );
}
