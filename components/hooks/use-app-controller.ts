import { useSidebarKey } from './use-sidebar-key';
import { useApp } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CoreClient, CoreState, Mode } from '../../src/protocol';
import { nextMode } from '../widgets/slash-commands';
import type { ModeConfirmAction } from '../keys/keymap';
import type { PromptMessage } from '../widgets/PromptInput';
import { useAppKeys } from './use-app-keys';
import { useCoreNotices } from './use-core-notices';
import { useTerminalNotify } from './use-terminal-notify';
import { useCtrlC } from './use-ctrl-c';
import { type OverlayKind, useSlashCommands } from './use-slash-commands';

const NO_LOCKS: readonly Mode[] = [];

/**
 * The app's own UI state (open panel, sidebar, group collapse, drawer size, hint line) and the
 * keys and commands that change it. Core state stays in the core; this is only presentation.
 */
export function useAppController(client: CoreClient, state: CoreState, openAtStart: OverlayKind = 'none') {
  const { exit } = useApp();
  const [overlay, setOverlay] = useState<OverlayKind>(openAtStart);
  const [sidebar, setSidebar] = useState(false);
  const [agentsExpanded, setAgentsExpanded] = useState(true);
  const [drawerFull, setDrawerFull] = useState(false);
  const [message, setMessage] = useState<PromptMessage | undefined>(undefined);
  const [reprintKey, setReprintKey] = useState(0);
  const [detailed, setDetailed] = useState(false);
  // Shift+Tab into auto waits here for one confirmation; other modes switch at once.
  const [confirmAuto, setConfirmAuto] = useState(false);
  const drawerOpen = state.pending.length > 0;

  // A drawer that asked for the whole screen gives it back when the queue empties.
  useEffect(() => {
    if (!drawerOpen) setDrawerFull(false);
  }, [drawerOpen]);
  // Closing a panel or a full-screen view leaves blank rows where it was, the conversation
  // scrolled away above; print the history again so it is back in view. (Not after each
  // approval: the drawer closes often, and the turn's next output fills the space anyway.)
  const wasCovering = useRef(false);
  const covering = overlay !== 'none' || (drawerOpen && drawerFull);
  useEffect(() => {
    if (wasCovering.current && !covering) setReprintKey((k) => k + 1);
    wasCovering.current = covering;
  }, [covering]);

  const quit = useCallback(() => {
    client.send({ type: 'quit' });
    exit();
  }, [client, exit]);
  const armed = useCtrlC(
    { onQuit: quit, onInterrupt: () => client.send({ type: 'cancel' }) },
    // A waiting card counts as running: Ctrl+C then interrupts the turn, never arms a quit out of sight.
    { isActive: true, busy: state.busy || state.pending.length > 0 },
  );
  const setMode = useCallback((mode: Mode) => client.send({ type: 'set_mode', mode }), [client]);
  const locked = state.lockedModes ?? NO_LOCKS;
  const answerAuto = useCallback(
    (answer: ModeConfirmAction) => {
      setConfirmAuto(false);
      if (answer === 'confirm') setMode('auto');
      if (answer === 'skip') setMode(nextMode('auto', locked));
    },
    [setMode, locked],
  );
  useCoreNotices(client, setMessage);
  useTerminalNotify(client);
  const closeOverlay = useCallback(() => setOverlay('none'), []);
  const run = useSlashCommands({
    client,
    mode: state.mode,
    openOverlay: setOverlay,
    say: setMessage,
    quit,
    paused: state.paused !== undefined,
    ...(state.customCommands ? { custom: state.customCommands } : {}),
  });
  const appKeysActive = !drawerOpen && overlay === 'none' && state.trust?.asking !== true && !confirmAuto;
  useAppKeys(
    {
      cancel_turn: () => client.send({ type: 'cancel' }),
      cycle_mode: () => {
        const next = nextMode(state.mode, locked);
        if (next === state.mode) return;
        if (next === 'auto') setConfirmAuto(true);
        else setMode(next);
      },
      toggle_sidebar: () => setSidebar((s) => !s),
      toggle_agents: () => setAgentsExpanded((e) => !e),
      pause_all: () => client.send(state.paused ? { type: 'resume' } : { type: 'pause' }),
      // The printed history shows the cards as they were printed: print it again, detailed or not.
      toggle_detail: () => {
        setDetailed((d) => !d);
        setReprintKey((k) => k + 1);
      },
    },
    // The trust card owns the keyboard (its Esc answers it) while it asks.
    { isActive: appKeysActive, busy: state.busy },
  );
  useSidebarKey(() => setSidebar((s) => !s), !appKeysActive);

  const hint: PromptMessage | undefined = armed
    ? { level: 'warn', text: 'press Ctrl+C again to quit' }
    : message;
  return {
    overlay,
    closeOverlay,
    sidebar,
    agentsExpanded,
    drawerOpen,
    drawerFull: drawerOpen && drawerFull,
    setDrawerFull,
    hint,
    run,
    reprintKey,
    /** Ctrl+O: tool cards show their whole output. */
    detailed,
    /** The auto-mode confirm row is showing (it owns the keyboard). */
    confirmAuto: confirmAuto && !drawerOpen && overlay === 'none',
    answerAuto,
  };
}
