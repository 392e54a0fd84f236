import { Box, Text } from 'ink';
import { memo, type ReactNode, useMemo } from 'react';
import type { AgentInfo, TranscriptEntry } from '../../src/protocol';
import { AgentGroup } from './AgentGroup';
import { entryAgent } from './TranscriptHistory';
import { TranscriptItem } from './TranscriptItem';
import { estimateRows, hiddenLiveLine, liveWindow } from './transcript-split';

type Props = {
  live: TranscriptEntry[];
  subAgents: AgentInfo[];
  labels: Map<string, string>;
  width: number;
  rows: number;
  agentsExpanded: boolean;
  showAgents: boolean;
  detailed?: boolean;
};

/**
 * Entries still changing, clipped to `rows` keeping the newest lines, then the sub-agent group.
 * Only the newest entries that fit are rendered; a line counts the rest ("+N more · running · waiting").
 */
export const LiveTail = memo(function LiveTail(props: Props): ReactNode {
  const { live, subAgents, labels, width, rows, agentsExpanded, showAgents, detailed } = props;
  const groupRows = showAgents && subAgents.length > 0 ? 1 + (agentsExpanded ? subAgents.length : 0) : 0;
  const tailRows = Math.max(0, rows - groupRows);
  const { shown, hidden } = useMemo(
    () => liveWindow(live, width, tailRows, detailed),
    [live, width, tailRows, detailed],
  );
  const entryRows = tailRows - (hidden.count > 0 ? 1 : 0);
  const estimate = shown.reduce((sum, e) => sum + estimateRows(e, width, detailed), 0);
  return (
    <>
      {hidden.count > 0 && tailRows > 0 ? (
        <Text dimColor wrap="truncate-end">
          {`  ${hiddenLiveLine(hidden)}`}
        </Text>
      ) : null}
      {live.length > 0 && entryRows > 0 ? (
        <Box
          flexDirection="column"
          height={estimate > entryRows ? entryRows : undefined}
          overflowY="hidden"
          justifyContent="flex-end"
        >
          <Box flexDirection="column" flexShrink={0}>
            {shown.map((entry) => (
              <TranscriptItem
                key={entry.id}
                entry={entry}
                width={width}
                agentLabel={labels.get(entryAgent(entry) ?? '')}
                detailed={detailed}
              />
            ))}
          </Box>
        </Box>
      ) : null}
      {groupRows > 0 && rows > 0 ? (
        <AgentGroup agents={subAgents} expanded={agentsExpanded} width={width} />
      ) : null}
    </>
  );
});
