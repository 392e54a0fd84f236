import { Box } from 'ink';
import { type ReactNode, useMemo, useRef } from 'react';
import type { AgentInfo, TranscriptEntry } from '../../src/protocol';
import { LiveTail } from './LiveTail';
import { TranscriptHistory } from './TranscriptHistory';
import { promptSubAgents, sameEntries, splitTranscript, subAgentLabels } from './transcript-split';

type Props = {
  transcript: TranscriptEntry[];
  agents: AgentInfo[];
  /** Width of printed history (the whole terminal). */
  width: number;
  /** Width of the live column (narrower when the sidebar is beside it). */
  liveWidth: number;
  /** Rows the live tail may take; older live lines are clipped from the top. */
  liveRows: number;
  agentsExpanded: boolean;
  /** Whether the sub-agent group is shown (a running turn, or sub-agents still active). */
  showAgents: boolean;
  /** The person's latest prompt (CoreState.prompt): the group shows its sub-agents only. */
  prompt?: number;
  /** Ctrl+O: every tool card with its whole output (the app reprints the history when it changes). */
  detailed?: boolean;
  /** Changing it clears the screen and prints the history again (after a full-screen view). */
  reprintKey?: number;
  /** What sits under the live tail in the same column (panel, drawer, prompt). */
  children?: ReactNode;
  /** What sits beside that column (the audit sidebar). */
  aside?: ReactNode;
};

/**
 * The conversation. Finished entries go into <Static>, printed once, so a long session costs
 * nothing per frame; only the live tail (streaming text, running or waiting tools and whatever
 * follows them) re-renders, in a column that also holds `children`, with `aside` beside it.
 */
export function ConversationPane(props: Props): ReactNode {
  const {
    transcript,
    agents,
    width,
    liveWidth,
    liveRows,
    agentsExpanded,
    showAgents,
    reprintKey,
    children,
    aside,
    prompt,
    detailed = false,
  } = props;
  const split = useMemo(() => splitTranscript(transcript), [transcript]);
  // The printed history keeps its identity while no entry of it changed: each frame of a burst
  // copies the transcript, and the history (its items, <Static>) need not be looked at again.
  const kept = useRef(split.history);
  if (!sameEntries(kept.current, split.history)) kept.current = split.history;
  const history = kept.current;
  const { live } = split;
  const labels = useMemo(() => subAgentLabels(agents), [agents]);
  const subAgents = useMemo(() => promptSubAgents(agents, prompt), [agents, prompt]);
  return (
    <>
      <TranscriptHistory
        history={history}
        labels={labels}
        width={width}
        reprintKey={reprintKey}
        detailed={detailed}
      />
      <Box flexDirection="row">
        <Box flexDirection="column" width={liveWidth} justifyContent="flex-end">
          <LiveTail
            live={live}
            subAgents={subAgents}
            labels={labels}
            width={liveWidth}
            rows={liveRows}
            agentsExpanded={agentsExpanded}
            showAgents={showAgents}
            detailed={detailed}
          />
          {children}
        </Box>
        {aside}
      </Box>
    </>
  );
}
