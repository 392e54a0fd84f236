import { markPaused, turnOnHold } from './transcript/agent-pause';
import { relatedToPending, sidebarFoldedLine } from './panels/audit-sidebar-look';
import { Box, Text } from 'ink';
import { homedir } from 'node:os';
import { type ComponentType, type ReactNode, useMemo } from 'react';
import type { CoreClient } from '../src/protocol';
import { safeClient } from '../src/text/safe-client';
import { ApprovalDrawer, type ApprovalDrawerProps } from './drawer/ApprovalDrawer';
import { AuditBanner } from './widgets/AuditBanner';
import { AuditSidebar } from './panels/AuditSidebar';
import { ConversationPane } from './transcript/ConversationPane';
import { useAppController } from './hooks/use-app-controller';
import { useCoreState } from './hooks/use-core-state';
import { useTerminalSize } from './hooks/use-terminal-size';
import { computeLayout } from './look/layout';
import { OverlayHost } from './panels/OverlayHost';
import { ModeConfirm } from './widgets/ModeConfirm';
import { PromptInput } from './widgets/PromptInput';
import { usePathCompletion } from './widgets/use-path-completion';
import { StatusBar } from './widgets/StatusBar';
import { TrustCard } from './panels/TrustCard';
import { SuggestionCard } from './panels/SuggestionCard';
import { CompactCard } from './panels/CompactCard';
import { TurnReviewCard } from './review/TurnReviewCard';
import { makeTheme, ThemeContext } from './look/theme';
import { KeyBridgeProvider } from './keys/key-bridge';
import { allCommands } from './widgets/slash-commands';

/** What the app hands the drawer; a test stand-in takes the same. */
export type DrawerProps = Pick<
  ApprovalDrawerProps,
  'client' | 'pending' | 'width' | 'height' | 'isActive' | 'onFullScreen'
>;

type Props = {
  client: CoreClient;
  /** The approval drawer component; tests may pass a stand-in. Defaults to ApprovalDrawer. */
  drawer?: ComponentType<DrawerProps>;
  /** The clock for the audit browser's "today". */
  now?: () => Date;
  /** Home directory, shown as ~ in the status bar. */
  home?: string;
  /** A panel open from the start (`warden --resume` opens the saved sessions). */
  openAtStart?: 'sessions';
};

/** The app under its key bridge, so every key handler in it, the app's own included, is live from its first commit. */
export function App(props: Props): ReactNode {
  return (
    <KeyBridgeProvider>
      <Screen {...props} />
    </KeyBridgeProvider>
  );
}

/**
 * The whole screen: printed history above; below it the live tail, a panel or the approval
 * drawer, the prompt and the audit sidebar beside them; the status bar last. The audit browser
 * replaces all but the status bar.
 * Every component below sees the core through `safeClient`: no untrusted text reaches the screen raw.
 */
function Screen({
  client: coreClient,
  drawer: Drawer = ApprovalDrawer,
  now,
  home = homedir(),
  openAtStart,
}: Props): ReactNode {
  const client = useMemo(() => safeClient(coreClient), [coreClient]);
  const state = useCoreState(client);
  const size = useTerminalSize();
  const theme = useMemo(() => makeTheme(), []);
  const completePath = usePathCompletion(client);
  const ui = useAppController(client, state, openAtStart);
  const browser = ui.overlay === 'audit';
  const panel = browser ? 'none' : ui.overlay;
  // The trust card waits for the person's answer; an approval drawer or an open panel comes first.
  const trustCard =
    state.trust?.asking === true && !ui.drawerOpen && ui.overlay === 'none' ? state.trust : undefined;
  // The turn review (the output gate) waits after the trust card, a drawer and any open panel.
  const review =
    state.review && !trustCard && !ui.drawerOpen && ui.overlay === 'none' ? state.review : undefined;
  // An offer to save a repeated approval or edit waits for every other card and panel.
  const suggestion =
    !trustCard && !review && !ui.drawerOpen && ui.overlay === 'none' && !ui.confirmAuto
      ? state.suggestions?.[0]
      : undefined;
  // A /compact summary (asked for, or offered before the window overflows) waits for the cards above.
  const compact =
    !trustCard && !review && !suggestion && !ui.drawerOpen && ui.overlay === 'none' && !ui.confirmAuto
      ? state.compact
      : undefined;
  const layout = computeLayout({
    ...size,
    // The audit banner takes a row while it shows.
    rows: size.rows - (state.auditUnavailable ? 1 : 0),
    sidebar: ui.sidebar,
    drawerOpen: ui.drawerOpen,
    drawerFull: ui.drawerFull,
    panel:
      panel !== 'none' ||
      trustCard !== undefined ||
      review !== undefined ||
      suggestion !== undefined ||
      compact !== undefined,
    browser,
  });
  const showBrowser = browser && !ui.drawerOpen;
  const sidebar = (
    <AuditSidebar
      records={state.recentAudit}
      agents={state.agents}
      width={layout.sidebar.width}
      height={layout.sidebar.rows}
      related={relatedToPending(state.pending)}
    />
  );
  const subAgentsActive = state.agents.some(
    (a) => a.parentId !== undefined && (a.status === 'running' || a.status === 'waiting'),
  );
  const overlayProps = { client, state, onClose: ui.closeOverlay, now };
  const shownAgents = useMemo(() => markPaused(state.agents, state.paused), [state.agents, state.paused]);
  const commands = useMemo(() => allCommands(state.customCommands), [state.customCommands]);

  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={size.columns}>
        <OverlayHost
          kind={browser ? 'audit' : 'none'}
          hidden={!showBrowser}
          width={size.columns}
          rows={layout.browserRows}
          {...overlayProps}
        />
        <ConversationPane
          transcript={state.transcript}
          agents={shownAgents}
          width={size.columns}
          liveWidth={layout.leftWidth}
          liveRows={panel === 'none' && !showBrowser ? layout.liveRows : 0}
          agentsExpanded={ui.agentsExpanded}
          showAgents={!showBrowser && (state.busy || subAgentsActive)}
          reprintKey={ui.reprintKey}
          detailed={ui.detailed}
          prompt={state.prompt}
          aside={layout.sidebar.placement === 'side' ? sidebar : null}
        >
          <OverlayHost
            kind={panel}
            hidden={ui.drawerOpen}
            width={layout.leftWidth}
            rows={layout.panelRows}
            {...overlayProps}
          />
          {trustCard ? (
            <TrustCard
              client={client}
              trust={trustCard}
              width={layout.leftWidth}
              maxRows={layout.panelRows}
              isActive
            />
          ) : null}
          {review ? (
            <TurnReviewCard
              client={client}
              review={review}
              width={layout.leftWidth}
              maxRows={layout.panelRows}
              isActive={!ui.confirmAuto}
            />
          ) : null}
          {suggestion ? (
            <SuggestionCard client={client} suggestion={suggestion} width={layout.leftWidth} isActive />
          ) : null}
          {compact ? (
            <CompactCard
              client={client}
              proposal={compact}
              width={layout.leftWidth}
              maxRows={layout.panelRows}
              isActive
            />
          ) : null}
          {ui.drawerOpen ? (
            <Drawer
              client={client}
              pending={state.pending}
              width={layout.leftWidth}
              height={layout.drawerRows}
              isActive
              onFullScreen={ui.setDrawerFull}
            />
          ) : null}
          {ui.confirmAuto && !trustCard ? (
            <ModeConfirm from={state.mode} isActive onAnswer={ui.answerAuto} />
          ) : null}
          <Box display={ui.drawerFull || showBrowser ? 'none' : 'flex'}>
            <PromptInput
              isActive={
                !ui.drawerOpen &&
                ui.overlay === 'none' &&
                !trustCard &&
                !review &&
                !ui.confirmAuto &&
                !suggestion &&
                !compact
              }
              width={layout.leftWidth}
              onSubmit={ui.run}
              completePath={completePath}
              commands={commands}
              message={ui.hint}
            />
          </Box>
        </ConversationPane>
        {layout.sidebar.placement === 'folded' ? (
          <Text dimColor wrap="truncate-end">
            {sidebarFoldedLine(size.columns)}
          </Text>
        ) : null}
        <AuditBanner problem={state.auditUnavailable} width={size.columns} />
        <StatusBar
          model={state.model}
          mode={state.mode}
          sandboxed={state.sandboxChecking ? 'checking' : state.sandboxed}
          pendingCount={state.pending.length}
          usage={state.usage}
          root={state.root}
          mcp={state.mcp}
          busy={state.busy}
          held={turnOnHold(state.agents, state.paused)}
          width={size.columns}
          home={home}
          grantCount={state.grants.length}
          context={state.context}
          paused={
            state.paused && {
              all: state.paused.all,
              // Sub-agents by name, as their cards and groups show them.
              agents: state.paused.agents.map((id) => state.agents.find((x) => x.id === id)?.name ?? id),
            }
          }
        />
      </Box>
    </ThemeContext.Provider>
  );
}
