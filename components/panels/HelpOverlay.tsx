import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { SLASH_COMMANDS } from '../commands';
import { HELP_PANEL_KEYS, KEY_HELP, PANEL_FOOTERS } from '../keys/keymap';
import { Panel } from '../widgets/Panel';
import { useKeyTable } from '../keys/use-keys';

type Props = { isActive: boolean; width: number; maxRows: number; onClose: () => void };

/** Borders, title, two headings, a spacer and the footer around the two tables. */
const NATURAL_ROWS = KEY_HELP.length + SLASH_COMMANDS.length + 7;

/** /help: every key and command, from the same tables the handlers use. */
export function HelpOverlay({ isActive, width, maxRows, onClose }: Props): ReactNode {
  useKeyTable(HELP_PANEL_KEYS, { close: onClose }, { isActive });
  const keyWidth = Math.max(...KEY_HELP.map((k) => k.keys.length)) + 2;
  const cmdWidth = Math.max(...SLASH_COMMANDS.map((c) => c.usage.length)) + 2;
  return (
    <Panel
      title="Help"
      footer={PANEL_FOOTERS.help}
      width={width}
      height={maxRows < NATURAL_ROWS ? maxRows : undefined}
    >
      <Text bold>Keys</Text>
      {KEY_HELP.map((row) => (
        <Box key={row.keys}>
          <Box width={keyWidth} flexShrink={0}>
            <Text>{row.keys}</Text>
          </Box>
          <Text dimColor wrap="truncate-end">
            {row.does}
          </Text>
        </Box>
      ))}
      <Text> </Text>
      <Text bold>Commands</Text>
      {SLASH_COMMANDS.map((c) => (
        <Box key={c.name}>
          <Box width={Math.min(cmdWidth, Math.floor(width / 2))} flexShrink={0}>
            <Text wrap="truncate-end">{c.usage}</Text>
          </Box>
          <Text dimColor wrap="truncate-end">
            {c.does}
          </Text>
        </Box>
      ))}
    </Panel>
  );
}
