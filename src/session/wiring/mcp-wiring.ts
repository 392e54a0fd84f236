import type { Gate } from '../../gate/gate';
import type { GrantStore } from '../../gate/grants';
import type { McpManager } from '../../mcp/manager';
import type { McpServerConfig } from '../../mcp/types';
import type { CoreEvent, CoreState } from '../../protocol';

/** The session's MCP servers: started once (`started`), restarted from /mcp, closed at shutdown. */
export type SessionMcp = {
  /** Resolves once every server is ready, failed or held (each bounded by its start timeout). Never rejects. */
  started: Promise<void>;
  /** Restarts one server (its grants go first). Rejects when no servers are configured. */
  restart(name: string): Promise<void>;
  close(): Promise<void>;
};

/**
 * The MCP SDK is loaded only when servers are configured, and the servers start on the next turn of
 * the event loop — after the UI's first frame is on screen: start-up is a feature. A server the
 * project declared is held until the person starts it. Each status change reaches the state, the
 * gate's tools (`mcp__…`) and the grants (a server that went away takes its grants with it).
 */
export function wireMcp(d: {
  servers: Record<string, McpServerConfig & { source?: 'user' | 'project' }>;
  state: CoreState;
  gate: Gate;
  grants: GrantStore;
  emit: (event: CoreEvent) => void;
  closed: () => boolean;
}): SessionMcp {
  const { servers, state, gate, grants, emit } = d;
  let mcp: McpManager | undefined;
  const started: Promise<void> =
    Object.keys(servers).length === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => setImmediate(resolve))
          .then(async () => {
            const { createMcpManager } = await import('../../mcp/manager');
            if (d.closed()) return; // warden ended before its first frame: start nothing
            mcp = createMcpManager({
              servers,
              hold: (name) =>
                servers[name]?.source === 'project'
                  ? "Declared by this project's .warden/config.json, so not started automatically; start it from /mcp (r) if you trust it."
                  : undefined,
              onStatus: (status) => {
                if (!mcp) return;
                state.mcp = mcp.status().map((s) => ({
                  name: s.name,
                  status: s.status,
                  tools: s.tools,
                  ...(s.error ? { error: s.error } : {}),
                }));
                gate.replaceTools('mcp__', mcp.tools());
                if (status.status !== 'ready') grants.dropServer(status.name);
                emit({ type: 'state_changed' });
              },
            });
            await mcp.start();
          })
          .catch((err: Error) =>
            emit({ type: 'notice', level: 'error', text: `MCP servers did not start: ${err.message}` }),
          );
  return {
    started,
    async restart(name) {
      grants.dropServer(name);
      await started;
      if (!mcp) throw new Error('No MCP servers are configured.');
      await mcp.restart(name);
    },
    async close() {
      await mcp?.close();
    },
  };
}
