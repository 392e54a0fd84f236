import { Box, Text } from 'ink';
import type { ApprovalRequest } from '../../src/protocol';
import { riskLabel, shortArgs } from './approval-details';
import { formatAge } from '../../src/text/duration';
import { displayLine, fit } from '../../src/text/wrap';
import { useTheme } from '../look/use-theme';

/**
 * Every pending request, one row each: agent, tool, short arguments, risk and age. Shows a window
 * of `rows` rows that always contains the cursor.
 */
export function ApprovalQueue(props: {
  pending: readonly ApprovalRequest[];
  selectedId: string | undefined;
  deciding: (request: ApprovalRequest) => boolean;
  width: number;
  rows: number;
  nowMs: number;
}) {
  const { pending, width } = props;
  const theme = useTheme();
  const riskColor = { low: theme.ok, medium: theme.warn, high: theme.error };
  const at = Math.max(
    0,
    pending.findIndex((r) => r.id === props.selectedId),
  );
  const rows = Math.max(1, props.rows);
  const start = Math.max(0, Math.min(at - Math.floor(rows / 2), pending.length - rows));
  const shown = pending.slice(start, start + rows);
  const agentW = Math.min(14, Math.max(6, ...pending.map((r) => r.agentName.length)));
  const toolW = Math.min(18, Math.max(6, ...pending.map((r) => r.tool.length)));
  const argsW = Math.max(8, width - (2 + agentW + 1 + toolW + 1 + 1 + 6 + 1 + 4));
  return (
    <Box flexDirection="column" width={width}>
      {shown.map((r) => {
        const selected = r.id === props.selectedId;
        return (
          <Text key={r.id} wrap="truncate-end" inverse={selected}>
            {selected ? '› ' : '  '}
            {fit(displayLine(r.agentName), agentW)} <Text color={theme.accent}>{fit(r.tool, toolW)}</Text>{' '}
            {fit(displayLine(shortArgs(r)), argsW)}{' '}
            <Text color={riskColor[r.risk.level]} bold={r.risk.level !== 'low'}>
              {fit(riskLabel(r.risk.level), 6)}
            </Text>{' '}
            <Text dimColor>{props.deciding(r) ? ' …' : formatAge(r.createdAt, props.nowMs).padStart(4)}</Text>
          </Text>
        );
      })}
    </Box>
  );
}
