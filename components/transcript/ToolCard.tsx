import { Box, Text } from 'ink';
import Spinner from 'ink-spinner';
import type { ReactNode } from 'react';
import type { TranscriptEntry } from '../../src/protocol';
import { oneLine } from '../format';
import { truncateChars } from '../../src/text/truncate';
import { useTheme } from '../hooks/use-theme';
import { statusLook } from './tool-status';

type ToolEntry = Extract<TranscriptEntry, { kind: 'tool' }>;

/** One tool call: status glyph and word, tool name, a summary, and a one-line result. */
export function ToolCard({
  entry,
  width,
  agentLabel,
}: {
  entry: ToolEntry;
  width: number;
  agentLabel?: string;
}): ReactNode {
  const theme = useTheme();
  const look = statusLook(entry.status, theme);
  const head = `${entry.tool} ${oneLine(entry.summary)}`;
  const room = Math.max(10, width - look.label.length - (agentLabel?.length ?? 0) - 8);
  return (
    <Box flexDirection="column">
      <Box>
        <Text color={look.color}>
          {/* A spinner only while running, and only in the live tail: static cards never animate. */}
          {entry.status === 'running' ? <Spinner type="dots" /> : look.glyph}{' '}
        </Text>
        {agentLabel ? <Text dimColor>[{agentLabel}] </Text> : null}
        <Text bold>{truncateChars(head, room)}</Text>
        <Text color={look.color}> · {look.label}</Text>
      </Box>
      {entry.result ? (
        <Text dimColor> ⎿ {truncateChars(oneLine(entry.result), Math.max(10, width - 6))}</Text>
      ) : null}
    </Box>
  );
}
