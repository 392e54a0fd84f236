import { Box, Static } from 'ink';
import { memo, type ReactNode, useMemo } from 'react';
import type { TranscriptEntry } from '../../src/protocol';
import { historyItems } from './history-items';
import { ToolGroup } from './ToolGroup';
import { useStaticHistory } from './use-static-history';
import { TranscriptItem } from './TranscriptItem';

type Props = {
  history: TranscriptEntry[];
  labels: Map<string, string>;
  width: number;
  reprintKey?: number;
  /** Tool cards with their whole output; changing it goes with a reprint (`reprintKey`). */
  detailed?: boolean;
};

export function entryAgent(entry: TranscriptEntry): string | undefined {
  return entry.kind === 'assistant' || entry.kind === 'tool' ? entry.agentId : undefined;
}

/**
 * Finished entries, printed once into the terminal's scrollback by <Static>. Must not sit under
 * a flex-end container: Static is absolutely positioned and would be shifted off the top.
 */
export const TranscriptHistory = memo(function TranscriptHistory({
  history,
  labels,
  width,
  reprintKey,
  detailed,
}: Props): ReactNode {
  // A burst of calls side by side is one printed block, not thousands of cards (history-items.ts).
  const all = useMemo(() => historyItems(history, detailed), [history, detailed]);
  const { epoch, start } = useStaticHistory(history, all, width, reprintKey, detailed);
  const items = useMemo(() => (start > 0 ? all.slice(start) : all), [all, start]);
  return (
    <Static key={epoch} items={items}>
      {(item) => (
        <Box key={item.id} width={width}>
          {item.kind === 'group' ? (
            <ToolGroup
              entries={item.entries}
              width={width}
              agentLabel={labels.get(item.entries[0]?.agentId ?? '')}
            />
          ) : (
            <TranscriptItem
              entry={item.entry}
              width={width}
              agentLabel={labels.get(entryAgent(item.entry) ?? '')}
              detailed={detailed}
            />
          )}
        </Box>
      )}
    </Static>
  );
});
