import { Text } from 'ink';
import { type ReactNode, useEffect, useState } from 'react';
import type { CompactProposal, CoreClient } from '../../src/protocol';
import { formatCount } from '../../src/text/count';
import { wrap } from '../../src/text/wrap';
import { useTheme } from '../look/use-theme';
import { COMPACT_KEYS, PANEL_FOOTERS } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';
import { Panel } from '../widgets/Panel';

type Props = {
  client: CoreClient;
  proposal: CompactProposal;
  width: number;
  /** Rows the card may take; a long summary scrolls inside them. */
  maxRows: number;
  isActive: boolean;
};

// Title, the figures line, the hint line, the footer and the border.
const CHROME_ROWS = 6;
const fmt = formatCount;

/**
 * The /compact card: the summary the model wrote (sanitised by the client), to be read
 * before it replaces the conversation. `y` accepts, `n`/Esc declines, ↑/↓ scroll a long summary.
 */
export function CompactCard({ client, proposal: p, width, maxRows, isActive }: Props): ReactNode {
  const theme = useTheme();
  const [top, setTop] = useState(0);
  // A new summary starts at its top.
  useEffect(() => setTop(0), [p.id]);
  const lines = p.summary.split('\n').flatMap((line) => {
    const rows = wrap(line, Math.max(10, width - 4));
    return rows.length > 0 ? rows : [''];
  });
  const room = Math.max(1, maxRows - CHROME_ROWS);
  const last = Math.max(0, lines.length - room);
  const answer = (accept: boolean) => () => client.send({ type: 'accept_compact', id: p.id, accept });
  useKeyTable(
    COMPACT_KEYS,
    {
      accept: answer(true),
      decline: answer(false),
      up: () => setTop((t) => Math.max(0, t - 1)),
      down: () => setTop((t) => Math.min(last, t + 1)),
    },
    { isActive },
  );
  const start = Math.min(top, last);
  const shown = lines.slice(start, start + room);
  const below = lines.length - start - shown.length;
  return (
    <Panel
      title={
        p.offered ? 'The context is nearly full: compact the conversation?' : 'Compact the conversation?'
      }
      footer={PANEL_FOOTERS.compact}
      width={width}
    >
      <Text wrap="truncate-end" color={p.after < p.before ? theme.accent : theme.warn}>
        {fmt(p.before)} → {fmt(p.after)} tokens · the model's summary:
      </Text>
      {shown.map((line, i) => (
        // Lines of one summary never reorder: their line number is their identity.
        <Text key={start + i} wrap="truncate-end">
          {line || ' '}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        {start > 0 || below > 0 ? `lines ${start + 1}–${start + shown.length} of ${lines.length} · ` : ''}
        {p.offered
          ? 'n goes on as before (the turn may stop when the window is full)'
          : 'the system prompt stays; the transcript keeps its lines'}
      </Text>
    </Panel>
  );
}
