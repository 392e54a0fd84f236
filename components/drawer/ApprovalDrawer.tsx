import { Box, Text, useStdin } from 'ink';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ApprovalRequest, CoreClient } from '../../src/protocol';
import { useSecondTick } from '../look/use-second-tick';
import { useTheme } from '../look/use-theme';
import { keyId } from '../keys/keymap';
import { useKeys } from '../keys/use-keys';
import { ApprovalCard } from './ApprovalCard';
import { ApprovalFooter } from './ApprovalFooter';
import { ApprovalQueue } from './ApprovalQueue';
import { cardGeometry, cardPreview, previewLines } from './card-layout';
import { DrawerContext } from './drawer-context';
import {
  type DrawerAction,
  type DrawerEffect,
  frameState,
  gateKey,
  initialDrawerState,
  isDeciding,
  reduceDrawer,
  selected,
} from './drawer-state';
import { editExternally, type SpawnEditor } from './external-editor';
import { cachedDiffModel } from './preview/diff-rows';

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
};

/**
 * The gate's face: the queue of pending approvals and the card under the cursor. Its state is one
 * pure reducer (drawer-state.ts) held in a ref that every key reads and writes, so a burst of keys
 * sees what the keys before it did; this component feeds it keys and core events and runs the
 * effects it returns. Talks to the core only through `client` (decide, report_invalid_input,
 * cancel). Contract: a decision is sent at most once per request, and keys are ignored for 400 ms
 * after the card under the cursor changed by itself, so a key meant for one card never lands on
 * another.
 */
export function ApprovalDrawer(props: ApprovalDrawerProps) {
  const { client, pending, width, height } = props;
  const now = props.now ?? Date.now;
  const theme = useTheme();
  const { stdin, isRawModeSupported } = useStdin();
  const store = useRef(initialDrawerState());
  const [held, setState] = useState(store.current);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(props);
  latest.current = props;

  const dispatch = useCallback((action: DrawerAction) => {
    const step = reduceDrawer(store.current, action);
    store.current = step.state;
    setState(step.state);
    run(step.effects);
  }, []);
  // The effects of a step, against the latest props; effects that answer back dispatch again.
  const run = (effects: DrawerEffect[]) => {
    const p = latest.current;
    for (const effect of effects) {
      if (effect.kind === 'send') p.client.send(effect.command);
      else if (effect.kind === 'full_screen') p.onFullScreen?.(effect.on);
      else if (effect.kind === 'grace_cancel') clearTimeout(timer.current);
      else if (effect.kind === 'grace_timer') {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => dispatch({ type: 'grace_elapsed' }), Math.max(0, effect.ms));
      } else {
        const editorVar = p.editor ?? process.env.EDITOR;
        const terminal = isRawModeSupported ? stdin : {};
        const result = editExternally(effect.content, effect.fileName, {
          spawn: p.spawnEditor,
          editorVar,
          terminal,
        });
        dispatch({ type: 'external_edit_done', id: effect.id, field: effect.field, result });
      }
    }
  };
  const gate = useCallback(() => {
    const step = gateKey(store.current, (latest.current.now ?? Date.now)());
    if (step.state !== store.current) {
      store.current = step.state;
      setState(step.state);
    }
    run(step.effects);
    return step.allowed;
  }, []);

  // The queue is the core's; a layout effect runs at commit, before any later key is handled.
  useLayoutEffect(() => dispatch({ type: 'sync', pending, now: now() }), [pending]);
  // A key that arrives before the previous key's effect is on screen would act on what the person
  // no longer sees (↓ then y in one read approved the card they had just left): until this commit,
  // such keys were dropped.
  useLayoutEffect(() => {
    store.current = reduceDrawer(store.current, { type: 'painted' }).state;
  });
  useEffect(
    () =>
      client.subscribe(
        (event) => {
          if (event.type !== 'approval_input_invalid') return;
          dispatch({
            type: 'invalid_count',
            requestId: event.requestId,
            count: event.count,
            limit: event.limit,
          });
        },
        ['approval_input_invalid'],
      ),
    [client],
  );
  // Ages and expiries count up on screen, on the clock the transcript's elapsed times share.
  useSecondTick();
  useEffect(() => {
    return () => {
      clearTimeout(timer.current);
      if (store.current.fullScreen) latest.current.onFullScreen?.(false);
    };
  }, []);

  const nowMs = now();
  // A new queue shows as the sync below will leave it: a new card's first frame is its grace window.
  const state = frameState(held, pending, nowMs);
  const request = selected(state);
  const parentName = request?.parentAgentId
    ? client.snapshot().agents.find((a) => a.id === request.parentAgentId)?.name
    : undefined;
  const queueRows = state.fullScreen
    ? 0
    : Math.min(state.pending.length, Math.max(1, Math.min(5, Math.floor((height - 14) / 2))));
  const cardHeight = Math.max(4, height - 2 - queueRows - (queueRows ? 1 : 0));
  const geometry =
    request &&
    cardGeometry(request, { width, height: cardHeight, fullScreen: state.fullScreen }, nowMs, parentName);
  // The line diff runs once per request and argument hash (an accepted edit changes the hash).
  const model = useMemo(() => {
    const p = request?.preview;
    return p?.kind === 'diff'
      ? cachedDiffModel(`${request?.id}:${request?.argsHash}`, p.before, p.after, p.isNew)
      : undefined;
  }, [request?.id, request?.argsHash]);
  const lines = useMemo(() => request && previewLines(request, width), [request, width]);
  const preview =
    request &&
    geometry &&
    cardPreview(
      request,
      { model, lines },
      { width, bodyHeight: geometry.bodyHeight },
      state.layout,
      state.card.scroll,
      state.card,
    );
  const deciding = isDeciding(state, request);

  useKeys((input, key) => preview && dispatch({ type: 'key', id: keyId(input, key), view: preview.view }), {
    isActive: props.isActive && !deciding,
    gate,
  });

  const channel = useMemo(() => ({ dispatch, gate }), [dispatch, gate]);
  const count = state.pending.length ? `${state.index + 1} of ${state.pending.length}` : 'queue empty';
  return (
    <DrawerContext.Provider value={channel}>
      {/* Clipped top and bottom only: each line is cut to the width already (see DiffView). */}
      <Box flexDirection="column" width={width} height={height} overflowY="hidden">
        <Text wrap="truncate-end" bold inverse color={theme.warn}>
          {` Approval needed · ${count}${state.fullScreen ? ' · full screen (f)' : ''} `.padEnd(width)}
        </Text>
        {queueRows ? (
          <ApprovalQueue
            pending={state.pending}
            selectedId={request?.id}
            deciding={(r) => isDeciding(state, r)}
            width={width}
            rows={queueRows}
            nowMs={nowMs}
          />
        ) : null}
        {queueRows ? <Text dimColor>{'━'.repeat(Math.max(0, width))}</Text> : null}
        {request && geometry && preview ? (
          <ApprovalCard
            key={request.id}
            request={request}
            card={state.card}
            geometry={geometry}
            preview={preview}
            width={width}
            height={cardHeight}
            isActive={props.isActive && !deciding}
            projectUntrusted={client.snapshot().trust?.status === 'untrusted'}
          />
        ) : (
          <Box height={cardHeight} />
        )}
        <ApprovalFooter
          width={width}
          request={request}
          mode={state.card.mode}
          waiting={state.waiting}
          deciding={deciding}
          message={state.message && state.message.id === request?.id ? state.message : undefined}
          invalid={request ? state.invalid[request.id] : undefined}
        />
      </Box>
    </DrawerContext.Provider>
  );
}
