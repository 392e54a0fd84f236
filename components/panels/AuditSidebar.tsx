import { Box, Text } from 'ink';
import { memo, type ReactNode } from 'react';
import type { AuditRecord } from '../../src/protocol/audit';
import type { AgentInfo } from '../../src/protocol';
import { clock } from '../format';
import { truncateChars } from '../../src/text/truncate';
import { useTheme } from '../hooks/use-theme';
import { auditResultWord, outcomeColor } from './audit-look';

type Props = { records: AuditRecord[]; agents: AgentInfo[]; width: number; height: number };

/** Latest audit decisions, newest first, two lines each: time and tool; agent, outcome, approver. */
export const AuditSidebar = memo(function AuditSidebar({ records, agents, width, height }: Props): ReactNode {
  const theme = useTheme();
  const names = new Map(agents.map((a) => [a.id, a.name]));
  const fit = Math.max(0, Math.floor((height - 3) / 2));
  const latest = records.slice(-fit).reverse();
  const inner = width - 4;
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="round"
      borderColor={theme.border}
      paddingX={1}
      overflow="hidden"
    >
      <Text bold color={theme.accent}>
        Audit · latest
      </Text>
      {latest.length === 0 ? <Text dimColor>no decisions yet</Text> : null}
      {latest.map((r, i) => {
        const result = auditResultWord(r);
        return (
          <Box key={`${r.ts}:${r.requestId ?? ''}:${r.phase}:${i}`} flexDirection="column">
            <Text wrap="truncate-end">
              <Text dimColor>{clock(r.ts)} </Text>
              <Text bold>{truncateChars(r.tool, inner - 9)}</Text>
            </Text>
            <Text wrap="truncate-end">
              {'  '}
              {truncateChars(r.agentName ?? names.get(r.agentId) ?? r.agentId, 12)}{' '}
              <Text color={outcomeColor(result, theme)}>{result}</Text> <Text dimColor>by {r.approver}</Text>
            </Text>
          </Box>
        );
      })}
    </Box>
  );
});
