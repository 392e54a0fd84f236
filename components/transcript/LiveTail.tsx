import { Box } from 'ink';
import { memo, type ReactNode } from 'react';
import type { AgentInfo, TranscriptEntry } from '../../src/protocol';
import { AgentGroup } from './AgentGroup';
import { entryAgent } from './TranscriptHistory';
import { TranscriptItem } from './TranscriptItem';
import { estimateRows } from './transcript-split';

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

/** Entries still changing, clipped to `rows` keeping the newest lines, then the sub-agent group. */
export const LiveTail = memo(function LiveTail(props: Props): ReactNode {
  const { live, subAgents, labels, width, rows, agentsExpanded, showAgents, detailed } = props;
  const groupRows = showAgents && subAgents.length > 0 ? 1 + (agentsExpanded ? subAgents.length : 0) : 0;
  const tailRows = Math.max(0, rows - groupRows);
  const estimate = live.reduce((sum, e) => sum + estimateRows(e, width, detailed), 0);
  return (
    <>
      {live.length > 0 && tailRows > 0 ? (
        <Box
          flexDirection="column"
          height={estimate > tailRows ? tailRows : undefined}
          overflowY="hidden"
          justifyContent="flex-end"
        >
          <Box flexDirection="column" flexShrink={0}>
            {live.map((entry) => (
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
