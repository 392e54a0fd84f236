import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { ToolCardStatus, TranscriptEntry } from '../../src/protocol';
import { formatCount } from '../../src/text/count';
import { truncateChars } from '../../src/text/truncate';
import { oneLine } from '../look/format';
import { useTheme } from '../look/use-theme';
import { groupCounts, groupShown } from './history-items';
import { statusLook } from './tool-status';

type ToolEntry = Extract<TranscriptEntry, { kind: 'tool' }>;

type Props = { entries: readonly ToolEntry[]; width: number; agentLabel?: string };

const n = formatCount;

/** The status a group's glyph shows: waiting or running while any call does, then a failure, else the most common. */
function headline(statuses: [ToolCardStatus, number][]): ToolCardStatus {
  const first = (...wanted: ToolCardStatus[]) => statuses.find(([s]) => wanted.includes(s))?.[0];
  const pick = first('waiting') ?? first('running') ?? first('error', 'blocked', 'rejected');
  if (pick) return pick;
  return [...statuses].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'executed';
}

/**
 * A batch of calls that ran side by side, printed once as one block: "read_file × 5,000 · 5,000
 * executed", the last few calls (those that did not execute first), and "+N more" for the rest,
 * which Ctrl+O's detailed transcript shows card by card. In the live tail the same block counts a
 * batch still running ("read_file × 1,234 of 5,000 · 1,170 executed · 64 running").
 */
export function ToolGroup({ entries, width, agentLabel }: Props): ReactNode {
  const theme = useTheme();
  const { tools, statuses } = groupCounts(entries);
  const look = statusLook(headline(statuses), theme);
  // While a batch is still starting, the run is shorter than the batch: say how far it got.
  const size = entries[0]?.batch?.size ?? entries.length;
  const of = size > entries.length ? ` of ${n(size)}` : '';
  const head = `${tools.map(([tool, count]) => `${tool} × ${n(count)}`).join(' · ')}${of}`;
  const tally = statuses
    .map(([status, count]) => `${n(count)} ${statusLook(status, theme).label}`)
    .join(' · ');
  const shown = groupShown(entries);
  const more = entries.length - shown.length;
  const room = Math.max(10, width - 8);
  return (
    <Box flexDirection="column" paddingLeft={2}>
      <Box>
        <Text color={look.color}>{look.glyph} </Text>
        {agentLabel ? <Text dimColor>[{agentLabel}] </Text> : null}
        <Text bold>{truncateChars(head, Math.max(10, width - tally.length - 8))}</Text>
        <Text color={look.color}> · {tally}</Text>
      </Box>
      {/* Rows keyed by place, not by call: while a batch runs its last calls change every frame, and
          new keys would build new layout nodes for the same three rows each time. */}
      {shown.map((entry, row) => {
        const each = statusLook(entry.status, theme);
        // A call that did not execute says why, as its card would.
        const why = entry.status !== 'executed' && entry.result ? ` — ${oneLine(entry.result)}` : '';
        const line = `${entry.tool} ${oneLine(entry.summary)}${why}`;
        return (
          <Text key={row} wrap="truncate-end">
            {'   '}
            <Text color={each.color}>{each.glyph}</Text> {truncateChars(line, room - each.label.length - 4)}
            <Text color={each.color}> · {each.label}</Text>
          </Text>
        );
      })}
      {more > 0 ? <Text dimColor>{`   +${n(more)} more · Ctrl+O shows every call`}</Text> : null}
    </Box>
  );
}
