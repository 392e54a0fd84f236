import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { AuditRecord } from '../../src/protocol/audit';
import { formatDurationCompact } from '../../src/text/duration';
import { clock } from '../format';
import { prettyJson } from '../../src/text/json';
import { truncateChars } from '../../src/text/truncate';
import { useTheme } from '../hooks/use-theme';

type Props = { record: AuditRecord; width: number; rows: number; agentName: (id: string) => string };

/** Side-by-side needs room for two readable JSON columns. */
const SIDE_BY_SIDE_MIN = 90;

function JsonColumn({
  title,
  value,
  width,
  rows,
}: {
  title: string;
  value: unknown;
  width: number;
  rows: number;
}): ReactNode {
  const lines = (value === undefined ? '(none)' : prettyJson(value)).split('\n');
  const shown = lines.slice(0, Math.max(1, rows));
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      <Text bold underline>
        {title}
      </Text>
      {shown.map((line, i) => (
        <Text key={i}>{truncateChars(line, width - 1)}</Text>
      ))}
      {lines.length > shown.length ? <Text dimColor>… {lines.length - shown.length} more lines</Text> : null}
    </Box>
  );
}

/** One audit record in full; args and editedArgs side by side when wide, stacked when narrow. */
export function AuditDetail({ record: r, width, rows, agentName }: Props): ReactNode {
  const theme = useTheme();
  const edited = r.editedArgs !== undefined;
  const wide = width >= SIDE_BY_SIDE_MIN;
  const jsonRows = Math.max(3, (wide || !edited ? rows - 7 : Math.floor((rows - 8) / 2)) - 1);
  const colWidth = edited && wide ? Math.floor((width - 2) / 2) : width;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{r.tool}</Text> · {clock(r.ts)} · agent {agentName(r.agentId)} · task {r.taskId} ·{' '}
        {r.phase} line
      </Text>
      <Text wrap="truncate-end">
        decision {r.decision} · outcome {r.outcome ?? '–'} · by {r.approver} · rule {r.rule} · risk {r.risk} ·
        wait {formatDurationCompact(r.waitMs)} · ran {formatDurationCompact(r.durationMs)}
      </Text>
      {r.reason ? (
        <Text color={theme.warn} wrap="truncate-end">
          reason: {r.reason}
        </Text>
      ) : null}
      {r.result ? <Text wrap="truncate-end">result: {r.result}</Text> : null}
      <Text dimColor wrap="truncate-end">
        args hash {r.argsHash}
        {r.requestId ? ` · request ${r.requestId}` : ''}
      </Text>
      <Box flexDirection={edited && wide ? 'row' : 'column'} marginTop={1}>
        <JsonColumn title="args" value={r.args} width={colWidth} rows={jsonRows} />
        {edited ? (
          <JsonColumn
            title="editedArgs (as edited by a person)"
            value={r.editedArgs}
            width={colWidth}
            rows={jsonRows}
          />
        ) : null}
      </Box>
    </Box>
  );
}
