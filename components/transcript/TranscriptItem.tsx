import { Box, Text } from 'ink';
import { memo, type ReactNode } from 'react';
import type { TranscriptEntry } from '../../src/protocol';
import { useTheme } from '../look/use-theme';
import { Markdown } from './Markdown';
import { StartBanner } from './StartBanner';
import { ToolCard } from './ToolCard';

/** `detailed`: tool cards show their whole output (Ctrl+O). */
type Props = { entry: TranscriptEntry; width: number; agentLabel?: string; detailed?: boolean };

const NOTICE_GLYPH = { info: 'ℹ', warn: '⚠', error: '✗' } as const;

/** One transcript entry; memoised so the live tail re-renders only entries that changed. */
export const TranscriptItem = memo(function TranscriptItem({
  entry,
  width,
  agentLabel,
  detailed,
}: Props): ReactNode {
  const theme = useTheme();
  switch (entry.kind) {
    case 'user':
      return (
        <Box marginTop={1}>
          <Text color={theme.user} bold>
            ›{' '}
          </Text>
          <Box flexShrink={1}>
            <Text>{entry.text}</Text>
          </Box>
        </Box>
      );
    case 'assistant':
      return (
        <Box flexDirection="column" paddingLeft={2}>
          {agentLabel ? <Text dimColor>[{agentLabel}]</Text> : null}
          <Markdown text={entry.text || (entry.streaming ? '…' : '')} width={width - 2} />
        </Box>
      );
    case 'tool':
      return (
        <Box paddingLeft={2}>
          <ToolCard entry={entry} width={width - 2} agentLabel={agentLabel} detailed={detailed} />
        </Box>
      );
    case 'banner':
      return <StartBanner start={entry.start} />;
    case 'notice': {
      const color = entry.level === 'info' ? theme.info : entry.level === 'warn' ? theme.warn : theme.error;
      return (
        <Box paddingLeft={2}>
          <Text color={color}>
            {NOTICE_GLYPH[entry.level]} {entry.text}
          </Text>
        </Box>
      );
    }
  }
});
