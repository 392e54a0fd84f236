import { Box, Text } from 'ink';
import { Spinner } from '../widgets/Spinner';
import type { ReactNode } from 'react';
import type { TranscriptEntry } from '../../src/protocol';
import { oneLine } from '../look/format';
import { truncateCells, truncateChars } from '../../src/text/truncate';
import { expandTabs } from '../../src/text/wrap';
import { useTheme } from '../look/use-theme';
import { Elapsed } from './Elapsed';
import { statusLook } from './tool-status';
import { TranscriptDiff } from './TranscriptDiff';
import { cardLines, moreLines } from './tool-lines';

type ToolEntry = Extract<TranscriptEntry, { kind: 'tool' }>;

type Props = {
  entry: ToolEntry;
  width: number;
  agentLabel?: string;
  /** Ctrl+O: the whole output instead of its last lines. */
  detailed?: boolean;
};

/**
 * One tool call: status glyph and word (with the elapsed time while it runs), tool name, summary and
 * plan step; below, the last lines of its output ("+N lines" above them), or all of them when detailed.
 * A running command shows the live tail of what it prints.
 */
export function ToolCard({ entry, width, agentLabel, detailed = false }: Props): ReactNode {
  const theme = useTheme();
  const look = statusLook(entry.status, theme);
  const step = entry.step
    ? ` · step ${entry.step.index}${entry.step.total ? `/${entry.step.total}` : ''}`
    : '';
  const head = `${entry.tool} ${oneLine(entry.summary)}`;
  const room = Math.max(10, width - look.label.length - step.length - (agentLabel?.length ?? 0) - 14);
  const running = entry.status === 'running';
  const body = cardLines(entry, detailed);
  const lineRoom = Math.max(10, width - 5);
  return (
    <Box flexDirection="column">
      <Box>
        <Text color={look.color}>
          {/* A spinner only while running, and only in the live tail: static cards never animate. */}
          {running ? <Spinner /> : look.glyph}{' '}
        </Text>
        {agentLabel ? <Text dimColor>[{agentLabel}] </Text> : null}
        <Text bold>{truncateChars(head, room)}</Text>
        <Text color={look.color}> · {look.label}</Text>
        {running && entry.startedAt !== undefined ? (
          <Elapsed since={entry.startedAt} color={look.color} />
        ) : null}
        {step ? <Text dimColor>{step}</Text> : null}
      </Box>
      {body.hidden > 0 ? <Text dimColor> ⎿ … {moreLines(body.hidden)}</Text> : null}
      {body.lines.map((line, i) => (
        <Text key={i} dimColor wrap={detailed ? 'wrap' : 'truncate-end'}>
          {i === 0 && body.hidden === 0 ? ' ⎿ ' : '   '}
          {body.live ? '│ ' : ''}
          {detailed ? expandTabs(line) : truncateCells(expandTabs(line), lineRoom)}
        </Text>
      ))}
      {entry.diff ? (
        <Box paddingLeft={3}>
          <TranscriptDiff diff={entry.diff} width={width - 3} />
        </Box>
      ) : null}
    </Box>
  );
}
