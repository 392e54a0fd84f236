import { Box, Text } from 'ink';
import { memo, type ReactNode } from 'react';
import type { AgentInfo } from '../../src/protocol';
import type { AuditRecord } from '../../src/protocol/audit';
import { truncateChars } from '../../src/text/truncate';
import { clock } from '../look/format';
import { useTheme } from '../look/use-theme';
import { auditResultWord, outcomeColor } from './audit-look';
import { auditWhat } from './audit-what';

type Props = {
  records: AuditRecord[];
  agents: AgentInfo[];
  width: number;
  height: number;
  /** Earlier decisions on the call a card asks about now (same tool and arguments): marked. */
  related?: (record: AuditRecord) => boolean;
};

/**
 * The audit trail as a column beside the conversation, live, newest first, two lines a
 * decision: when · who · outcome · approver, then the tool and what it acted on (path or command).
 * Decisions on the call a card asks about now are marked ▶, so its history is in view while it asks.
 */
export const AuditSidebar = memo(function AuditSidebar(props: Props): ReactNode {
  const { records, agents, width, height, related } = props;
  const theme = useTheme();
  const names = new Map(agents.map((a) => [a.id, a.name]));
  const fit = Math.max(0, Math.floor((height - 3) / 2));
  const latest = records.slice(-fit).reverse();
  const inner = Math.max(8, width - 4);
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="round"
      borderColor={theme.border}
      paddingX={1}
      overflow="hidden"
      flexShrink={0}
    >
      <Text bold color={theme.accent} wrap="truncate-end">
        Audit · latest first (Ctrl+T hides)
      </Text>
      {latest.length === 0 ? <Text dimColor>no decisions yet</Text> : null}
      {latest.map((r, i) => {
        const result = auditResultWord(r);
        const mark = related?.(r) === true;
        const who = r.agentName ?? names.get(r.agentId) ?? r.agentId;
        return (
          <Box key={`${r.ts}:${r.requestId ?? ''}:${r.phase}:${i}`} flexDirection="column" flexShrink={0}>
            <Text wrap="truncate-end" bold={mark}>
              <Text color={mark ? theme.warn : undefined}>{mark ? '▶' : ' '}</Text>
              <Text dimColor>{clock(r.ts)} </Text>
              {truncateChars(who, 10)} <Text color={outcomeColor(result, theme)}>{result}</Text>
              <Text dimColor> by {r.approver}</Text>
            </Text>
            <Text wrap="truncate-end" bold={mark}>
              {'  '}
              {truncateChars(`${r.tool} ${auditWhat(r)}`, inner - 2)}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
});
