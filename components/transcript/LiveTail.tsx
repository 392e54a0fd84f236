import { Box, Text } from 'ink';
import { memo, type ReactNode, useMemo } from 'react';
import type { AgentInfo, TranscriptEntry } from '../../src/protocol';
import { AgentGroup } from './AgentGroup';
import { entryAgent } from './TranscriptHistory';
import { TranscriptItem } from './TranscriptItem';
import { estimateItemRows, historyItems } from './history-items';
import { hiddenLiveLine, liveWindow } from './live-window';
import { ToolGroup } from './ToolGroup';

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
  // A running batch big enough to be grouped is one block here too (its counts move), not a
  // screenful of cards redrawn every frame.
  const items = useMemo(() => historyItems(live, detailed), [live, detailed]);
  const { shown, hidden } = useMemo(
    () => liveWindow(items, width, tailRows, detailed),
    [items, width, tailRows, detailed],
  );
  const entryRows = tailRows - (hidden.count > 0 ? 1 : 0);
  const estimate = shown.reduce((sum, item) => sum + estimateItemRows(item, width, detailed), 0);
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
            {shown.map((item) =>
              item.kind === 'group' ? (
                <ToolGroup
                  key={item.id}
                  entries={item.entries}
                  width={width}
                  agentLabel={labels.get(item.entries[0]?.agentId ?? '')}
                />
              ) : (
                <TranscriptItem
                  key={item.id}
                  entry={item.entry}
                  width={width}
                  agentLabel={labels.get(entryAgent(item.entry) ?? '')}
                  detailed={detailed}
                />
              ),
            )}
          </Box>
        </Box>
      ) : null}
      {groupRows > 0 && rows > 0 ? (
        <AgentGroup agents={subAgents} expanded={agentsExpanded} width={width} />
      ) : null}
    </>
  );
});
