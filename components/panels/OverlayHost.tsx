import { Box } from 'ink';
import type { ReactNode } from 'react';
import type { CoreClient, CoreState } from '../../src/protocol';
import { AuditBrowser } from './AuditBrowser';
import { GrantsPanel } from './GrantsPanel';
import { HelpOverlay } from './HelpOverlay';
import type { OverlayKind } from '../hooks/use-slash-commands';
import { McpPanel } from './McpPanel';
import { MemoryPanel } from './MemoryPanel';
import { PlanEditPanel } from './PlanEditPanel';
import { PolicyPanel } from './PolicyPanel';
import { SessionsPanel } from './SessionsPanel';

type Props = {
  kind: OverlayKind;
  client: CoreClient;
  state: CoreState;
  /** Hidden (e.g. behind the approval drawer) but kept mounted, so its cursor and filters survive. */
  hidden: boolean;
  width: number;
  rows: number;
  onClose: () => void;
  now?: () => Date;
};

/** The open panel or the full-screen audit browser, owning the keyboard while shown. */
export function OverlayHost({ kind, client, state, hidden, width, rows, onClose, now }: Props): ReactNode {
  if (kind === 'none') return null;
  const isActive = !hidden;
  const panel = (() => {
    switch (kind) {
      case 'help':
        return (
          <HelpOverlay
            isActive={isActive}
            width={width}
            maxRows={rows}
            onClose={onClose}
            {...(state.customCommands ? { custom: state.customCommands } : {})}
          />
        );
      case 'grants':
        return (
          <GrantsPanel
            client={client}
            grants={state.grants}
            isActive={isActive}
            width={width}
            rows={rows}
            onClose={onClose}
          />
        );
      case 'sessions':
        return (
          <SessionsPanel
            client={client}
            current={state.sessionId}
            isActive={isActive}
            width={width}
            rows={rows}
            onClose={onClose}
            now={now}
          />
        );
      case 'plan':
        return (
          <PlanEditPanel
            client={client}
            plan={state.plan}
            isActive={isActive}
            width={width}
            rows={rows}
            onClose={onClose}
          />
        );
      case 'mcp':
        return (
          <McpPanel client={client} servers={state.mcp} isActive={isActive} width={width} onClose={onClose} />
        );
      case 'policy':
        return (
          <PolicyPanel
            mode={state.mode}
            sandboxed={state.sandboxed}
            grants={state.grants.length}
            policy={state.policy}
            trust={state.trust}
            recentAudit={state.recentAudit}
            isActive={isActive}
            width={width}
            maxRows={rows}
            onClose={onClose}
          />
        );
      case 'memory':
        return (
          <MemoryPanel
            files={state.instructions}
            isActive={isActive}
            width={width}
            maxRows={rows}
            onClose={onClose}
          />
        );
      case 'audit':
        return (
          <AuditBrowser
            client={client}
            agents={state.agents}
            isActive={isActive}
            width={width}
            height={rows}
            onClose={onClose}
            exported={state.auditExport}
            now={now}
          />
        );
    }
  })();
  return (
    // Only the browser is full screen; panels take their natural height (each caps itself at rows).
    <Box
      display={hidden ? 'none' : 'flex'}
      height={kind === 'audit' ? rows : undefined}
      overflow="hidden"
      flexDirection="column"
    >
      {panel}
    </Box>
  );
}
