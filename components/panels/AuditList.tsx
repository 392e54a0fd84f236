import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { AuditRecord } from '../../src/protocol/audit';
import { auditResultWord, outcomeColor } from './audit-look';
import { clock, oneLine } from '../look/format';
import { truncateChars } from '../../src/text/truncate';
import { auditWhat } from './audit-what';
import { windowStart } from './use-list-cursor';
import { useTheme } from '../look/use-theme';

type Props = {
  records: AuditRecord[];
  cursor: number;
  rows: number;
  width: number;
  agentName: (id: string) => string;
};

const pad = (text: string, n: number) => truncateChars(text, n).padEnd(n);

/** A window of audit rows around the cursor: time, agent, tool, what (path or command), outcome, approver, rule, reason. */
export function AuditList({ records, cursor, rows, width, agentName }: Props): ReactNode {
  const theme = useTheme();
  const start = windowStart(cursor, records.length, rows);
  const free = Math.max(0, width - 2 - 9 - 11 - 16 - 11 - 7);
  // What the call acted on gets half of what is left; the rule and reason the other half.
  const what = Math.max(10, Math.floor(free * 0.5));
  const rest = Math.max(0, free - what);
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {'  '}
        {pad('time', 9)}
        {pad('agent', 11)}
        {pad('tool', 16)}
        {pad('what', what)}
        {pad('result', 11)}
        {pad('by', 7)}
        rule / reason
      </Text>
      {records.slice(start, start + rows).map((r, i) => {
        const selected = start + i === cursor;
        const result = auditResultWord(r);
        return (
          <Text key={`${start + i}:${r.ts}`} wrap="truncate-end" bold={selected}>
            <Text color={selected ? theme.accent : undefined}>{selected ? '› ' : '  '}</Text>
            {pad(clock(r.ts), 9)}
            {pad(agentName(r.agentId), 11)}
            {pad(r.tool, 16)}
            {pad(auditWhat(r), what)}
            <Text color={outcomeColor(result, theme)}>{pad(result, 11)}</Text>
            {pad(r.approver, 7)}
            <Text dimColor>{truncateChars(oneLine(r.reason ? `${r.rule}: ${r.reason}` : r.rule), rest)}</Text>
          </Text>
        );
      })}
    </Box>
  );
}
