import { Box, Text } from 'ink';
import { type ReactNode, useState } from 'react';
import type { CoreClient, CoreState } from '../../src/protocol';
import { oneLine } from '../look/format';
import { truncateChars } from '../../src/text/truncate';
import { useListCursor } from './use-list-cursor';
import { useTheme } from '../look/use-theme';
import { Panel } from '../widgets/Panel';
import { MCP_KEYS, PANEL_FOOTERS } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';

type Props = {
  client: CoreClient;
  servers: CoreState['mcp'];
  isActive: boolean;
  width: number;
  onClose: () => void;
};

const GLYPH = { starting: '◐', ready: '✓', failed: '✗' } as const;

/** /mcp: configured MCP servers with status, tool count and error; r restarts the selected one. */
export function McpPanel({ client, servers, isActive, width, onClose }: Props): ReactNode {
  const theme = useTheme();
  const [cursor] = useListCursor(servers.length, { isActive });
  const [feedback, setFeedback] = useState('');
  useKeyTable(
    MCP_KEYS,
    {
      select: () => {}, // the list cursor moves
      restart: () => {
        const server = servers[cursor];
        if (!server) return;
        client.send({ type: 'restart_mcp', server: server.name });
        setFeedback(`restarting ${server.name}…`);
      },
      close: onClose,
    },
    { isActive },
  );
  return (
    <Panel title={`MCP servers (${servers.length})`} footer={PANEL_FOOTERS.mcp} width={width}>
      {servers.length === 0 ? <Text dimColor>No MCP servers configured.</Text> : null}
      {servers.map((s, i) => {
        const selected = i === cursor;
        const color = s.status === 'failed' ? theme.error : s.status === 'ready' ? theme.ok : theme.info;
        return (
          <Box key={s.name} flexDirection="column">
            <Text wrap="truncate-end">
              <Text bold={selected} color={selected ? theme.accent : undefined}>
                {selected ? '› ' : '  '}
                {s.name}
              </Text>
              <Text color={color}>
                {' '}
                {GLYPH[s.status]} {s.status}
              </Text>
              <Text dimColor> · {s.tools} tools</Text>
            </Text>
            {s.error ? (
              <Text color={theme.error} wrap="truncate-end">
                {'    '}
                {truncateChars(oneLine(s.error), width - 8)}
              </Text>
            ) : null}
          </Box>
        );
      })}
      {feedback ? <Text color={theme.info}>{feedback}</Text> : null}
    </Panel>
  );
}
