import { Box, Text } from 'ink';
import { DETAIL_LABEL_WIDTH, type DetailLine, type DetailTone } from './approval-details';

const TONES: Record<DetailTone, { color?: string; bold?: boolean; dimColor?: boolean; inverse?: boolean }> = {
  plain: {},
  dim: { dimColor: true },
  low: { color: 'green' },
  medium: { color: 'yellow', bold: true },
  high: { color: 'red', bold: true },
  error: { color: 'red' },
  ok: { color: 'green' },
};

/** Who asks, why, what, the risk, the rule and whether it can be undone: one row per line. */
export function ApprovalDetails(props: { lines: DetailLine[]; width: number }) {
  return (
    <Box flexDirection="column" width={props.width}>
      {props.lines.map((line, i) => (
        <Text key={`${line.label}-${i}`} wrap="truncate-end">
          <Text dimColor>{line.label.padEnd(DETAIL_LABEL_WIDTH)}</Text>
          <Text {...TONES[line.tone]}>{line.text}</Text>
        </Text>
      ))}
    </Box>
  );
}
