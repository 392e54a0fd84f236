import { Box, Static } from 'ink';
import { memo, type ReactNode, useMemo } from 'react';
import type { TranscriptEntry } from '../../src/protocol';
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
  const { epoch, start } = useStaticHistory(history, width, reprintKey, detailed);
  const items = useMemo(() => (start > 0 ? history.slice(start) : history), [history, start]);
  return (
    <Static key={epoch} items={items}>
      {(entry) => (
        <Box key={entry.id} width={width}>
          <TranscriptItem
            entry={entry}
            width={width}
            agentLabel={labels.get(entryAgent(entry) ?? '')}
            detailed={detailed}
          />
        </Box>
      )}
    </Static>
  );
});
