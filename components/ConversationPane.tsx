import { Box, Static } from 'ink';
import { memo, type ReactNode, useMemo } from 'react';
import type { AgentInfo, TranscriptEntry } from '../src/protocol';
import { AgentGroup } from './AgentGroup';
import { useStaticHistory } from './hooks/use-static-history';
import { TranscriptItem } from './TranscriptItem';
import { estimateRows, splitTranscript, subAgentLabels } from './transcript-split';

type Props = {
  transcript: TranscriptEntry[];
  agents: AgentInfo[];
  /** Width of printed history (the whole terminal). */
  width: number;
  /** Width of the live tail (the left column when the sidebar is open). */
  liveWidth: number;
  /** Rows the live tail may take; older live lines are clipped from the top. */
  liveRows: number;
  agentsExpanded: boolean;
  /** Whether the group is shown (sub-agents of a running turn, or still active). */
  showAgents: boolean;
};

/**
 * The conversation. Finished entries go into <Static>, printed once into the scrollback, so a
 * long session costs nothing per frame; only the live tail (streaming text, running or waiting
 * tools and whatever follows them) re-renders, clipped to `liveRows` keeping the newest lines.
 */
export const ConversationPane = memo(function ConversationPane(props: Props): ReactNode {
  const { transcript, agents, width, liveWidth, liveRows, agentsExpanded, showAgents } = props;
  const { history, live } = useMemo(() => splitTranscript(transcript), [transcript]);
  const labels = useMemo(() => subAgentLabels(agents), [agents]);
  const subAgents = useMemo(() => agents.filter((a) => a.parentId !== undefined), [agents]);
  const epoch = useStaticHistory(history, width);

  const groupRows = showAgents && subAgents.length > 0 ? 1 + (agentsExpanded ? subAgents.length : 0) : 0;
  const tailRows = Math.max(0, liveRows - groupRows);
  const estimate = live.reduce((rows, e) => rows + estimateRows(e, liveWidth), 0);

  return (
    <>
      <Static key={epoch} items={history}>
        {(entry) => (
          <Box key={entry.id} width={width}>
            <TranscriptItem entry={entry} width={width} agentLabel={labels.get(entryAgent(entry) ?? '')} />
          </Box>
        )}
      </Static>
      {live.length > 0 && tailRows > 0 ? (
        <Box
          flexDirection="column"
          height={estimate > tailRows ? tailRows : undefined}
          overflowY="hidden"
          justifyContent="flex-end"
        >
          <Box flexDirection="column" flexShrink={0}>
            {live.map((entry) => (
              <TranscriptItem key={entry.id} entry={entry} width={liveWidth} agentLabel={labels.get(entryAgent(entry) ?? '')} />
            ))}
          </Box>
        </Box>
      ) : null}
      {groupRows > 0 ? <AgentGroup agents={subAgents} expanded={agentsExpanded} width={liveWidth} /> : null}
    </>
  );
});

function entryAgent(entry: TranscriptEntry): string | undefined {
  return entry.kind === 'assistant' || entry.kind === 'tool' ? entry.agentId : undefined;
}
