/**
 * One sandboxed run with network: the proxy (run-proxy.ts) for the hosts the gate approved, the
 * relay that hands it the sandbox's listener (sandbox-relay.ts), and what the result says of it —
 * which hosts it could reach, how many connections went out, which ones were refused and why.
 */
import type { Server } from 'node:net';
import type { ToolContext } from '../../types';
import type { Resolver } from '../../web/web-http';
import type { HostView } from '../sandbox-view';
import { type RunProxy, startRunProxy } from './run-proxy';
import { networkCommand, relayNode } from './sandbox-relay';

export type NetworkRun = {
  /** The hosts, as the card named them. */
  hosts: string[];
  /** bubblewrap's mounts for the relay's node (none where the view shows it). */
  mounts: string[];
  /** What bubblewrap runs: the relay, then `command` with the proxy's variables. */
  argv(command: string): string[];
  /** Serves the listener the relay sends (process-group.ts takes it off the channel). */
  onListener(listener: Server): void;
  /** Closes the proxy and every connection; what the result says of the run's network. */
  finish(): Promise<NetworkReport>;
};

export type NetworkReport = {
  /** For the result's last line: `network only to … through warden's proxy (…)`. */
  footer: string;
  /** For the notes above it: the refused connections, and how to ask for a host. */
  notes: string[];
  data: { hosts: string[]; connections: number; refused: number };
};

/**
 * Prepares the network of one run. Contract: never throws; a relay that cannot be set up (no node
 * binary to bind) is `{ ok: false, reason }` and the run is refused, never run half-connected.
 */
export function startNetworkRun(
  network: NonNullable<ToolContext['network']>,
  view: HostView,
  lookup?: Resolver,
): { ok: true; run: NetworkRun } | { ok: false; reason: string } {
  let node: { path: string; mounts: string[] };
  try {
    node = relayNode(view);
  } catch (err) {
    return {
      ok: false,
      reason: `warden's node binary cannot be found for the network relay (${(err as Error).message})`,
    };
  }
  const hosts = network.entries.map((e) => e.text);
  const proxy: RunProxy = startRunProxy({
    entries: network.entries,
    audit: (c) => network.audit(c),
    ...(lookup ? { lookup } : {}),
  });
  return {
    ok: true,
    run: {
      hosts,
      mounts: node.mounts,
      argv: (command) => networkCommand(node.path, command),
      onListener: (listener) => proxy.serve(listener),
      async finish() {
        await proxy.close();
        return report(hosts, proxy);
      },
    },
  };
}

function report(hosts: string[], proxy: RunProxy): NetworkReport {
  const { allowed, refused, refusedCount } = proxy.summary();
  const counts = [
    `${allowed} ${allowed === 1 ? 'connection' : 'connections'}`,
    ...(refusedCount > 0 ? [`${refusedCount} refused`] : []),
  ].join(', ');
  const notes: string[] = [];
  if (refusedCount > 0) {
    const shown = refused.map((r) => `${r.target} (${r.reason})`).join('; ');
    const more = refusedCount > refused.length ? `; and ${refusedCount - refused.length} more` : '';
    notes.push(
      `warden's proxy refused ${refusedCount === 1 ? 'a connection' : `${refusedCount} connections`}: ${shown}${more}. A host this run was not approved for needs a call that names it in \`network\`, which the person approves on the card.`,
    );
  }
  return {
    footer: `network only to ${hosts.join(', ')} through warden's proxy (${counts})`,
    notes,
    data: { hosts, connections: allowed, refused: refusedCount },
  };
}
