import { Box, Text } from 'ink';
import type { ApprovalPreview } from '../../src/protocol';
import { useTheme } from '../hooks/use-theme';
import { cardHelp, escalationHelp, HELP_CLOSE, questionHelp } from '../keys/keymap';

/** The keys of the card in view, from the keymap the drawer's handler uses. Any key closes it. */
export function ApprovalHelp(props: { kind: ApprovalPreview['kind']; width: number }) {
  const theme = useTheme();
  const rows =
    props.kind === 'question'
      ? questionHelp()
      : props.kind === 'escalation'
        ? escalationHelp()
        : cardHelp(props.kind);
  const keysWidth = Math.max(...rows.map((r) => r.keys.length)) + 2;
  return (
    <Box flexDirection="column" width={props.width}>
      <Text bold>Keys · {HELP_CLOSE}</Text>
      {rows.map((row) => (
        <Text key={row.keys} wrap="truncate-end">
          <Text color={theme.accent}>{row.keys.padEnd(keysWidth)}</Text>
          {row.does}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        Unknown keys count as mistakes; after five in a row the request is rejected.
      </Text>
    </Box>
  );
}
