import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { AgentInfo, AgentStatus } from '../../src/protocol';
import { oneLine } from '../format';
import { truncateChars } from '../../src/text/truncate';
import { useTheme } from '../hooks/use-theme';

const GLYPH: Record<AgentStatus, string> = {
  running: '◐',
  waiting: '⏸',
  done: '✓',
  failed: '✗',
  cancelled: '–',
};

/** "2 running, 1 done" in a fixed status order. */
function tally(agents: AgentInfo[]): string {
  const order: AgentStatus[] = ['running', 'waiting', 'done', 'failed', 'cancelled'];
  return order
    .map((s) => [s, agents.filter((a) => a.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
}

type Props = { agents: AgentInfo[]; expanded: boolean; width: number };

/** Sub-agents as one group: a summary line, and per agent its name, task and status when expanded. */
export function AgentGroup({ agents, expanded, width }: Props): ReactNode {
  const theme = useTheme();
  if (agents.length === 0) return null;
  const noun = agents.length === 1 ? 'sub-agent' : 'sub-agents';
  return (
    <Box flexDirection="column" paddingLeft={2}>
      <Text>
        <Text bold>
          {expanded ? '▾' : '▸'} {agents.length} {noun}
        </Text>
        <Text> · {tally(agents)}</Text>
        <Text dimColor> (Ctrl+G {expanded ? 'collapse' : 'expand'})</Text>
      </Text>
      {expanded
        ? agents.map((a) => {
            const color = a.status === 'failed' ? theme.error : a.status === 'done' ? theme.ok : theme.info;
            const detail = a.report && a.status !== 'running' ? a.report : a.task;
            return (
              <Text key={a.id} wrap="truncate-end">
                {'  '}
                <Text color={color}>{GLYPH[a.status]} </Text>
                <Text bold>{a.name}</Text>
                <Text color={color}> {a.status}</Text>
                <Text dimColor>
                  {' '}
                  — {truncateChars(oneLine(detail), Math.max(10, width - a.name.length - 20))}
                </Text>
              </Text>
            );
          })
        : null}
    </Box>
  );
}
