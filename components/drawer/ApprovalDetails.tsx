import { Box, Text } from 'ink';
import { DETAIL_LABEL_WIDTH, type DetailLine, type DetailTone } from './approval-details';
import type { Theme } from '../look/theme';
import { useTheme } from '../look/use-theme';

type Style = { color?: string; bold?: boolean; dimColor?: boolean };

function tones(theme: Theme): Record<DetailTone, Style> {
  return {
    plain: {},
    dim: { dimColor: true },
    low: { color: theme.ok },
    medium: { color: theme.warn, bold: true },
    high: { color: theme.error, bold: true },
    error: { color: theme.error },
    ok: { color: theme.ok },
  };
}

/** Who asks, why, what, the risk, the rule and whether it can be undone: one row per line. */
export function ApprovalDetails(props: { lines: DetailLine[]; width: number }) {
  const styles = tones(useTheme());
  return (
    <Box flexDirection="column" width={props.width}>
      {props.lines.map((line, i) => (
        <Text key={`${line.label}-${i}`} wrap="truncate-end">
          <Text dimColor>{line.label.padEnd(DETAIL_LABEL_WIDTH)}</Text>
          <Text {...styles[line.tone]}>{line.text}</Text>
        </Text>
      ))}
    </Box>
  );
}
