import { Box, Text } from 'ink';
import { type ReactNode, useEffect, useState } from 'react';
import type { CoreClient, SessionSummary } from '../../src/protocol';
import { formatAge } from '../../src/text/duration';
import { truncateChars } from '../../src/text/truncate';
import { useTheme } from '../look/use-theme';
import { PANEL_FOOTERS, SESSIONS_KEYS } from '../keys/keymap';
import { useKeyTable } from '../keys/use-keys';
import { Panel } from '../widgets/Panel';
import { useListCursor, windowStart } from './use-list-cursor';

type Props = {
  client: CoreClient;
  /** This session's id: its row is marked and not offered. */
  current: string;
  isActive: boolean;
  width: number;
  rows: number;
  onClose: () => void;
  now?: () => Date;
};

/**
 * /resume (and `warden --resume`): this project's saved sessions, newest first, with title, age and
 * turn count; Enter resumes the one under the cursor (the app starts again on it). The project's own
 * list cursor, not ink-select-input: keys that arrive together must act on the row they were meant for.
 */
export function SessionsPanel({ client, current, isActive, width, rows, onClose, now }: Props): ReactNode {
  const theme = useTheme();
  const [sessions, setSessions] = useState<SessionSummary[] | undefined>(undefined);
  const [feedback, setFeedback] = useState('');
  useEffect(() => {
    const stop = client.subscribe(
      (event) => {
        if (event.type === 'sessions_listed') setSessions(event.sessions);
      },
      ['sessions_listed'],
    );
    client.send({ type: 'list_sessions' });
    return stop;
  }, [client]);
  const list = sessions ?? [];
  const visible = Math.max(1, rows - 4);
  const [cursor] = useListCursor(list.length, { isActive, page: visible });
  useKeyTable(
    SESSIONS_KEYS,
    {
      select: () => {}, // the list cursor moves
      resume: () => {
        const chosen = list[cursor];
        if (!chosen) return;
        if (chosen.id === current) return setFeedback('That is this session.');
        setFeedback(`resuming "${chosen.title}"…`);
        client.send({ type: 'resume_session', id: chosen.id });
      },
      close: onClose,
    },
    { isActive },
  );
  const nowMs = (now?.() ?? new Date()).getTime();
  const start = windowStart(cursor, list.length, visible);
  return (
    <Panel title={`Saved sessions (${list.length})`} footer={PANEL_FOOTERS.sessions} width={width}>
      {sessions === undefined ? <Text dimColor>Reading the saved sessions…</Text> : null}
      {sessions !== undefined && list.length === 0 ? (
        <Text dimColor>No saved sessions for this project yet.</Text>
      ) : null}
      {list.slice(start, start + visible).map((s, i) => {
        const selected = start + i === cursor;
        const meta = ` · ${formatAge(s.updatedAt, nowMs)} ago · ${s.turns} turn${s.turns === 1 ? '' : 's'}${s.id === current ? ' · this session' : ''}`;
        return (
          <Box key={s.id}>
            <Text wrap="truncate-end">
              <Text bold={selected} color={selected ? theme.accent : undefined}>
                {selected ? '› ' : '  '}
                {truncateChars(s.title, Math.max(10, width - meta.length - 6))}
              </Text>
              <Text dimColor>{meta}</Text>
            </Text>
          </Box>
        );
      })}
      {feedback ? <Text color={theme.info}>{feedback}</Text> : null}
    </Panel>
  );
}
