import { Box, Text } from 'ink';
import type { ApprovalRequest } from '../../src/protocol';
import { truncateCells } from '../../src/text/truncate';
import { useTheme } from '../look/use-theme';
import { HELP_CLOSE } from '../keys/keymap';
import { cardHelpRows } from './card-kinds';
import { helpColumns } from './help-columns';

/**
 * The keys of the card in view, in the card's whole height: one row per key when they fit, else in
 * columns, so every key is on screen at 80x24 too. Every row is one line tall (it never shrinks,
 * so rows cannot draw over each other in the clipped card). Any key closes it.
 */
export function ApprovalHelp(props: {
  kind: ApprovalRequest['preview']['kind'];
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const layout = helpColumns(cardHelpRows(props.kind), props.width, props.height);
  return (
    <Box flexDirection="column" width={props.width} height={layout.height} flexShrink={0}>
      <Box height={1} flexShrink={0}>
        <Text bold wrap="truncate-end">
          Keys · {HELP_CLOSE}
        </Text>
      </Box>
      {layout.lines.map((line) => (
        <Box key={line[0]?.keys} height={1} flexShrink={0}>
          {line.map((cell) => (
            <Box key={cell.keys} width={layout.columnWidth} flexShrink={0}>
              <Text wrap="truncate-end">
                <Text color={theme.accent}>{cell.keys.padEnd(layout.keysWidth)}</Text>
                {truncateCells(cell.does, Math.max(1, layout.columnWidth - layout.keysWidth - 1))}
              </Text>
            </Box>
          ))}
        </Box>
      ))}
      {layout.note && (
        <Box height={1} flexShrink={0}>
          <Text dimColor wrap="truncate-end">
            Unknown keys count as mistakes; after five in a row the request is rejected.
          </Text>
        </Box>
      )}
    </Box>
  );
}
