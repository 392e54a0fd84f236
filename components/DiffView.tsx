import { Box, Text } from 'ink';
import { ApprovalScrollCounts } from './ApprovalScrollCounts';
import { truncate } from './approval-text';
import { type Cell, type DiffLayout, type DiffModel, gutterText, projectRows, type Tone } from './diff-rows';

export type DiffViewProps = {
  path: string;
  model: DiffModel;
  layout: DiffLayout;
  offset: number;
  width: number;
  /** Rows available, including the header and the count line. */
  height: number;
};

const TONE_COLOR: Record<Tone, string | undefined> = {
  context: undefined,
  removed: 'red',
  added: 'green',
  empty: undefined,
};

/** Old | new (or unified) view of a file write. Renders only the rows in view. */
export function DiffView(props: DiffViewProps) {
  const { model, layout, width } = props;
  const body = Math.max(1, props.height - 2);
  const view = projectRows(model, layout, props.offset, body, width);
  const summary = model.isNew
    ? `new file · ${model.added} lines`
    : `+${model.added} −${model.removed}${model.approximate ? ' · too different to align, shown as a replacement' : ''}`;
  const mode = model.isNew ? '' : layout === 'split' ? ' · side by side' : ' · unified';
  return (
    <Box flexDirection="column" width={width} height={props.height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>{truncate(props.path, Math.max(8, width - summary.length - 14))}</Text>
        <Text color={model.isNew ? 'green' : undefined}> {summary}</Text>
        <Text dimColor>{mode}</Text>
      </Text>
      {view.rows.map((row, i) => {
        const key = view.above + i;
        if (row.sign === undefined) {
          const [left, right] = row.cells;
          return (
            <Text key={key} wrap="truncate-end">
              {left ? cellText(left, view.gutter) : null}
              <Text dimColor> │ </Text>
              {right ? cellText(right, view.gutter) : null}
            </Text>
          );
        }
        const [cell] = row.cells;
        const tone = cell?.tone ?? 'context';
        return (
          <Text key={key} wrap="truncate-end">
            {view.gutters === 2 ? <Text dimColor>{`${gutterText(row.oldNo, view.gutter)} `}</Text> : null}
            <Text dimColor>{`${gutterText(row.newNo, view.gutter)} `}</Text>
            <Text color={TONE_COLOR[tone]}>{`${row.sign} `}</Text>
            {cell ? segmentsText(cell) : null}
          </Text>
        );
      })}
      <ApprovalScrollCounts above={view.above} below={view.below} hint="j/k PgUp/PgDn" />
    </Box>
  );
}

function cellText(cell: Cell, gutter: number) {
  return (
    <Text>
      <Text dimColor>{`${gutterText(cell.no, gutter)} `}</Text>
      {segmentsText(cell)}
    </Text>
  );
}

/** Changed words of a changed pair are shown inverse, so they stand out without colour too. */
function segmentsText(cell: Cell) {
  return (
    <Text color={TONE_COLOR[cell.tone]}>
      {cell.segments.map((s, i) =>
        s.changed ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity beyond position
          <Text key={i} inverse bold>
            {s.text}
          </Text>
        ) : (
          s.text
        ),
      )}
    </Text>
  );
}
