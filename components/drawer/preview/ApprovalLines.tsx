import { Box, Text } from 'ink';
import { ApprovalScrollCounts } from './ApprovalScrollCounts';
import type { LineTone, PreviewLine } from './approval-lines';
import type { Theme } from '../../look/theme';
import { useTheme } from '../../look/use-theme';

function tones(theme: Theme): Record<LineTone, { color?: string; bold?: boolean; dimColor?: boolean }> {
  return {
    command: { bold: true },
    label: { color: theme.accent },
    note: { color: theme.warn },
    plain: {},
    dim: { dimColor: true },
  };
}

/** A scrolled window of prepared lines plus the count of lines outside it. */
export function ApprovalLines(props: {
  lines: PreviewLine[];
  offset: number;
  height: number;
  width: number;
}) {
  const styles = tones(useTheme());
  const rows = Math.max(1, props.height - 1);
  const start = Math.max(0, Math.min(props.offset, props.lines.length - rows));
  const shown = props.lines.slice(start, start + rows);
  return (
    <Box flexDirection="column" width={props.width} height={props.height} overflow="hidden">
      {shown.map((line, i) => (
        <Text key={start + i} wrap="truncate-end" {...styles[line.tone]}>
          {line.text}
        </Text>
      ))}
      <ApprovalScrollCounts above={start} below={Math.max(0, props.lines.length - start - shown.length)} />
    </Box>
  );
}
