import { Box, Text } from 'ink';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ApprovalRequest, CoreClient, Decision } from '../src/protocol';
import { ApprovalCard } from './ApprovalCard';
import { ApprovalFooter, type FooterMessage } from './ApprovalFooter';
import { ApprovalQueue } from './ApprovalQueue';
import type { DiffLayout } from './diff-rows';
import { ApprovalKeyGateContext } from './hooks/use-approval-input';
import { useApprovalCursor } from './hooks/use-approval-cursor';
import { useApprovalDecisions } from './hooks/use-approval-decisions';
import { APPROVAL_KEY_HINT } from './hooks/use-approval-keys';
import { useApprovalNow } from './hooks/use-approval-now';
import type { CardCallbacks, CardMode } from './hooks/use-approval-card';
import { useBell } from './hooks/use-bell';
import { type SpawnEditor, useExternalEditor } from './hooks/use-external-editor';
import { useGraceWindow } from './hooks/use-grace-window';
import { useTheme } from './hooks/use-theme';

export type ApprovalDrawerProps = {
  client: CoreClient;
  pending: ApprovalRequest[];
  width: number;
  height: number;
  isActive: boolean;
  onFullScreen?: (on: boolean) => void;
  /** Clock for ages and the 400 ms grace window (injected in tests). */
  now?: () => number;
  /** Runs $EDITOR in the foreground (injected in tests). */
  spawnEditor?: SpawnEditor;
  /** The editor command; defaults to $EDITOR, then vi. */
  editor?: string;
  /** Replaces the terminal bell. */
  ringBell?: () => void;
};

/**
 * The gate's face: the queue of pending approvals and the card under the cursor. Talks to the
 * core only through `client` (decide, report_invalid_input). Contract: a decision is sent at most
 * once per request, and keys are ignored for 400 ms after the card under the cursor changed by
 * itself, so a key meant for one card never lands on another.
 */
export function ApprovalDrawer(props: ApprovalDrawerProps) {
  const { client, pending, width, height } = props;
  const now = props.now ?? Date.now;
  const nowMs = useApprovalNow(now);
  const cursor = useApprovalCursor(pending);
  const selected = cursor.selected;
  const grace = useGraceWindow(selected?.id, now);
  const decisions = useApprovalDecisions(client, pending);
  const externalEdit = useExternalEditor(props.spawnEditor, props.editor ?? process.env.EDITOR);
  const [fullScreen, setFullScreen] = useState(false);
  const [layout, setLayout] = useState<DiffLayout>('split');
  const [message, setMessage] = useState<{ id: string } & FooterMessage>();
  const [cardMode, setCardMode] = useState<{ id: string; mode: CardMode }>();
  useBell(pending.length > 0, props.ringBell);
  const theme = useTheme();

  const onFullScreen = props.onFullScreen;
  const fullRef = useRef(false);
  useEffect(() => () => void (fullRef.current && onFullScreen?.(false)), [onFullScreen]);

  // A key that arrives before the previous key's effect is on screen would act on what the person
  // no longer sees (↓ then y in one read approved the card they had just left): until the next
  // render commits, such keys are dropped.
  const settling = useRef(false);
  useLayoutEffect(() => {
    settling.current = false;
  });
  const graceAllow = grace.allow;
  const allowKey = useCallback(() => !settling.current && graceAllow(), [graceAllow]);

  const say = useCallback((id: string, text: string, tone: FooterMessage['tone']) => setMessage({ id, text, tone }), []);
  const callbacks: CardCallbacks | undefined = selected && {
    decide: (decision: Decision) => {
      if (decisions.decide(selected, decision)) setMessage(undefined);
    },
    invalid: (input) => {
      say(selected.id, `unknown key ${JSON.stringify(input)} · ${APPROVAL_KEY_HINT}`, 'hint');
      client.send({ type: 'report_invalid_input', id: selected.id });
    },
    queue: (delta) => {
      if (!pending[cursor.index + delta]) return;
      settling.current = true;
      grace.noteUserMove();
      cursor.step(delta);
    },
    toggleFullScreen: () => {
      fullRef.current = !fullScreen;
      setFullScreen(!fullScreen);
      onFullScreen?.(!fullScreen);
    },
    toggleLayout: () => {
      if (width < 100) say(selected.id, 'side by side needs 100 columns; showing unified', 'info');
      setLayout((l) => (l === 'split' ? 'unified' : 'split'));
    },
    notice: (text) => say(selected.id, text, 'info'),
    cancelTurn: () => client.send({ type: 'cancel' }),
    externalEdit,
    modeChanged: (mode) => {
      settling.current = true;
      setCardMode({ id: selected.id, mode });
    },
  };

  const queueRows = fullScreen ? 0 : Math.min(pending.length, Math.max(1, Math.min(5, Math.floor((height - 14) / 2))));
  const cardHeight = Math.max(4, height - 2 - queueRows - (queueRows ? 1 : 0));
  const deciding = selected ? decisions.isDeciding(selected) : false;
  const kind = selected?.preview.kind;
  const mode = cardMode && cardMode.id === selected?.id ? cardMode.mode : 'keys';
  const parentName = selected?.parentAgentId
    ? client.snapshot().agents.find((a) => a.id === selected.parentAgentId)?.name
    : undefined;

  return (
    <ApprovalKeyGateContext.Provider value={allowKey}>
      <Box flexDirection="column" width={width} height={height} overflow="hidden">
        <Text wrap="truncate-end" bold inverse color={theme.warn}>
          {` Approval needed · ${pending.length ? `${cursor.index + 1} of ${pending.length}` : 'queue empty'}${fullScreen ? ' · full screen (f)' : ''} `.padEnd(width)}
        </Text>
        {queueRows ? (
          <ApprovalQueue
            pending={pending}
            selectedId={selected?.id}
            deciding={decisions.isDeciding}
            width={width}
            rows={queueRows}
            nowMs={nowMs}
          />
        ) : null}
        {queueRows ? <Text dimColor>{'━'.repeat(Math.max(0, width))}</Text> : null}
        {selected && callbacks ? (
          <ApprovalCard
            key={selected.id}
            request={selected}
            width={width}
            height={cardHeight}
            isActive={props.isActive && !deciding}
            nowMs={nowMs}
            parentName={parentName}
            fullScreen={fullScreen}
            layout={layout}
            callbacks={callbacks}
          />
        ) : (
          <Box height={cardHeight} />
        )}
        <ApprovalFooter
          width={width}
          kind={kind}
          mode={mode}
          waiting={grace.waiting}
          deciding={deciding}
          message={message && message.id === selected?.id ? message : undefined}
          invalid={selected ? decisions.invalid.get(selected.id) : undefined}
        />
      </Box>
    </ApprovalKeyGateContext.Provider>
  );
}
