import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { AgentStatus } from '../../src/protocol';
import type { ShownAgent } from './agent-pause';
import { oneLine } from '../look/format';
import { truncateChars } from '../../src/text/truncate';
import { useTheme } from '../look/use-theme';

const GLYPH: Record<AgentStatus, string> = {
  running: '◐',
  waiting: '⏸',
  done: '✓',
  failed: '✗',
  cancelled: '–',
};

/** What the group calls an agent's state: a paused agent is "paused", whatever it was doing. */
const shownStatus = (a: ShownAgent): AgentStatus | 'paused' => (a.paused ? 'paused' : a.status);

/** "2 running, 1 paused, 1 done" in a fixed status order. */
function tally(agents: readonly ShownAgent[]): string {
  const order: (AgentStatus | 'paused')[] = ['running', 'waiting', 'paused', 'done', 'failed', 'cancelled'];
  return order
    .map((s) => [s, agents.filter((a) => shownStatus(a) === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
}

type Props = { agents: readonly ShownAgent[]; expanded: boolean; width: number };

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
            const status = shownStatus(a);
            const color =
              status === 'failed'
                ? theme.error
                : status === 'done'
                  ? theme.ok
                  : status === 'paused'
                    ? theme.warn
                    : theme.info;
            const detail = a.report && a.status !== 'running' ? a.report : a.task;
            return (
              <Text key={a.id} wrap="truncate-end">
                {'  '}
                <Text color={color}>{status === 'paused' ? '⏸' : GLYPH[a.status]} </Text>
                <Text bold>{a.name}</Text>
                <Text color={color}> {status}</Text>
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
