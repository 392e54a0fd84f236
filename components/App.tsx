import { Box, useApp } from 'ink';
import { homedir } from 'node:os';
import { type ComponentType, type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import type { ApprovalRequest, CoreClient } from '../src/protocol';
import { ApprovalDrawer } from './ApprovalDrawer';
import { AuditSidebar } from './AuditSidebar';
import { nextMode } from './commands';
import { ConversationPane } from './ConversationPane';
import { useAppKeys } from './hooks/use-app-keys';
import { useCoreNotices } from './hooks/use-core-notices';
import { useCoreState } from './hooks/use-core-state';
import { useCtrlC } from './hooks/use-ctrl-c';
import { type OverlayKind, useSlashCommands } from './hooks/use-slash-commands';
import { useTerminalSize } from './hooks/use-terminal-size';
import { computeLayout } from './layout';
import { OverlayHost } from './OverlayHost';
import { type PromptMessage, PromptInput } from './PromptInput';
import { StatusBar } from './StatusBar';
import { makeTheme, ThemeContext } from './theme';

export type DrawerProps = {
  client: CoreClient;
  pending: ApprovalRequest[];
  width: number;
  height: number;
  isActive: boolean;
  onFullScreen?: (on: boolean) => void;
};

type Props = {
  client: CoreClient;
  /** The approval drawer component; tests may pass a stand-in. Defaults to ApprovalDrawer. */
  drawer?: ComponentType<DrawerProps>;
  /** The clock for the audit browser's "today". */
  now?: () => Date;
  /** Home directory, shown as ~ in the status bar. */
  home?: string;
};

/** The whole screen: conversation, approval drawer, panels, prompt and status bar. */
export function App({ client, drawer: Drawer = ApprovalDrawer, now, home = homedir() }: Props): ReactNode {
  const state = useCoreState(client);
  const size = useTerminalSize();
  const { exit } = useApp();
  const theme = useMemo(() => makeTheme(), []);
  const [overlay, setOverlay] = useState<OverlayKind>('none');
  const [sidebar, setSidebar] = useState(false);
  const [agentsExpanded, setAgentsExpanded] = useState(true);
  const [drawerFull, setDrawerFull] = useState(false);
  const [message, setMessage] = useState<PromptMessage | undefined>(undefined);

  const drawerOpen = state.pending.length > 0;
  // A drawer that asked for the whole screen gives it back when the queue empties.
  useEffect(() => {
    if (!drawerOpen) setDrawerFull(false);
  }, [drawerOpen]);
  const quit = useCallback(() => {
    client.send({ type: 'quit' });
    exit();
  }, [client, exit]);
  const armed = useCtrlC(quit, { isActive: true });
  useCoreNotices(client, setMessage);
  const closeOverlay = useCallback(() => setOverlay('none'), []);
  const run = useSlashCommands({ client, mode: state.mode, openOverlay: setOverlay, say: setMessage, quit });
  useAppKeys(
    {
      onCancelTurn: () => client.send({ type: 'cancel' }),
      onCycleMode: () => client.send({ type: 'set_mode', mode: nextMode(state.mode) }),
      onToggleSidebar: () => setSidebar((s) => !s),
      onToggleAgents: () => setAgentsExpanded((e) => !e),
    },
    { isActive: !drawerOpen && overlay === 'none', busy: state.busy },
  );

  const browser = overlay === 'audit';
  const layout = computeLayout({
    columns: size.columns,
    rows: size.rows,
    sidebar,
    drawerOpen,
    drawerFull: drawerOpen && drawerFull,
    panel: overlay !== 'none' && !browser,
    browser,
  });
  const showBrowser = browser && !drawerOpen;
  const promptActive = !drawerOpen && overlay === 'none';
  const subAgentsActive = state.agents.some((a) => a.parentId !== undefined && (a.status === 'running' || a.status === 'waiting'));
  const sidebarView = (
    <AuditSidebar records={state.recentAudit} agents={state.agents} width={layout.sidebar.width} height={layout.sidebar.rows} />
  );
  const hint: PromptMessage | undefined = armed ? { level: 'warn', text: 'press Ctrl+C again to quit' } : message;

  return (
    <ThemeContext.Provider value={theme}>
      <ConversationPane
        transcript={state.transcript}
        agents={state.agents}
        width={size.columns}
        liveWidth={layout.leftWidth}
        liveRows={overlay === 'none' || drawerOpen ? layout.liveRows : 0}
        agentsExpanded={agentsExpanded}
        showAgents={state.busy || subAgentsActive}
      />
      <Box flexDirection="column" width={size.columns}>
        <OverlayHost
          kind={overlay}
          client={client}
          state={state}
          hidden={drawerOpen}
          width={browser ? size.columns : layout.leftWidth}
          rows={browser ? layout.browserRows : layout.panelRows}
          onClose={closeOverlay}
          now={now}
        />
        <Box display={showBrowser ? 'none' : 'flex'} flexDirection="row">
          <Box flexDirection="column" width={layout.leftWidth} justifyContent="flex-end">
            {drawerOpen ? (
              <Drawer
                client={client}
                pending={state.pending}
                width={layout.leftWidth}
                height={layout.drawerRows}
                isActive
                onFullScreen={setDrawerFull}
              />
            ) : null}
            <Box display={drawerOpen && drawerFull ? 'none' : 'flex'}>
              <PromptInput isActive={promptActive} width={layout.leftWidth} onSubmit={run} message={hint} />
            </Box>
          </Box>
          {layout.sidebar.placement === 'side' ? sidebarView : null}
        </Box>
        {layout.sidebar.placement === 'below' ? sidebarView : null}
        <StatusBar
          model={state.model}
          mode={state.mode}
          sandboxed={state.sandboxed}
          pendingCount={state.pending.length}
          usage={state.usage}
          root={state.root}
          mcp={state.mcp}
          busy={state.busy}
          width={size.columns}
          home={home}
        />
      </Box>
    </ThemeContext.Provider>
  );
}
