/**
 * How a sandboxed command reaches warden's proxy at all. The sandbox has a network namespace of its
 * own (loopback only, no route out), and its seccomp filter refuses every Unix socket — so the way
 * other sandboxes do it (a Unix socket bound into the sandbox, and socat inside relaying to it) is
 * closed here, on purpose: a command that could open one Unix socket could open others.
 *
 * Instead the listener is made inside and served outside:
 *   1 warden starts bubblewrap with a Node IPC channel on fd 4 (a socket pair: made before the
 *     sandbox, so the filter does not apply to it) and the wrapper below as the command;
 *   2 the wrapper runs a tiny relay on warden's own node: it listens on 127.0.0.1:0 in the
 *     sandbox's namespace, sends that listening socket to warden over the channel (SCM_RIGHTS), waits
 *     for warden's answer and exits — so no process in the sandbox holds the listener afterwards;
 *   3 the wrapper closes fd 4, clears the channel's variables, points HTTP(S)_PROXY and ALL_PROXY at
 *     127.0.0.1:PORT and execs `bash -c COMMAND`, exactly as a run without network does.
 * warden then accepts connections on that listener (run-proxy.ts): every byte the command sends out
 * passes warden's checks, and no channel to warden stays open inside the sandbox. A command without
 * approved hosts runs without any of this, with no network at all.
 */
import type { ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { Server, Socket } from 'node:net';
import { isAbsolute, relative } from 'node:path';
import type { HostView } from '../sandbox-view';

/** The descriptor the IPC channel has in the sandbox (0–2 are stdio, 3 the seccomp filter). */
export const PROXY_CHANNEL_FD = 4;

/** Loopback names a command reaches directly: inside the sandbox they are the sandbox itself. */
const NO_PROXY = 'localhost,127.0.0.1,::1';

/** The message the relay sends with the listener, and the answer it waits for. */
const LISTENING = 'warden-proxy-listening';
const READY = 'warden-proxy-ready';

/**
 * The relay (node -e). It never reads anything of the project and needs only node's own modules;
 * it gives up after 10 s rather than hold the command.
 */
const RELAY = `'use strict';
const net = require('net');
let done = false;
const fail = (why) => { if (done) return; done = true; process.stderr.write('warden: the network proxy could not start in the sandbox (' + why + ')\\n'); process.exit(1); };
if (typeof process.send !== 'function') fail('no channel to warden');
setTimeout(() => fail('warden did not answer'), 10000).unref();
process.on('disconnect', () => fail('warden closed the channel'));
const server = net.createServer();
server.on('error', (e) => fail(e.message));
server.listen({ host: '127.0.0.1', port: 0, backlog: 511 }, () => {
  const port = server.address().port;
  process.on('message', (m) => {
    if (!m || m.kind !== '${READY}' || done) return;
    done = true;
    process.stdout.write(String(port), () => process.exit(0));
  });
  process.send({ kind: '${LISTENING}', port }, server, (e) => { if (e) fail(e.message); });
});
`;

/**
 * The wrapper: $1 the node binary, $2 the relay's source, $3 the command. A relay that fails stops
 * the run (exit 125) with its reason in the output; nothing runs half-connected.
 */
const WRAPPER = `port=$(NODE_OPTIONS= "$1" -e "$2") || exit 125
exec ${PROXY_CHANNEL_FD}>&-
unset NODE_CHANNEL_FD NODE_CHANNEL_SERIALIZATION_MODE
case $port in ''|*[!0-9]*) echo "warden: the network proxy could not start in the sandbox" >&2; exit 125;; esac
p=http://127.0.0.1:$port
export HTTP_PROXY=$p HTTPS_PROXY=$p http_proxy=$p https_proxy=$p ALL_PROXY=$p all_proxy=$p
export NO_PROXY=${NO_PROXY} no_proxy=${NO_PROXY} NODE_USE_ENV_PROXY=1
exec bash -c "$3"`;

/** What bubblewrap runs for a command that may reach approved hosts: the wrapper, then the command. */
export function networkCommand(node: string, command: string): string[] {
  return ['bash', '-c', WRAPPER, 'warden-network', node, RELAY, command];
}

/** Whether an IPC message is the relay's: the listener it sends with it is the one to serve. */
export function isListenerMessage(message: unknown): boolean {
  return (
    typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === LISTENING
  );
}

/** The answer that lets the relay exit and the command start. */
export const READY_MESSAGE = { kind: READY } as const;

/**
 * The node binary the relay runs on: warden's own, where a folder the sandbox's view binds from the
 * host already shows it, else bound read-only at the same path. Contract: throws when the binary cannot be resolved.
 */
export function relayNode(
  view: HostView,
  execPath: string = process.execPath,
): { path: string; mounts: string[] } {
  const real = realpathSync(execPath);
  // The private /tmp and home are emptied in the sandbox: only the folders bound from the host show it.
  const empty = new Set(['/dev', '/proc', '/tmp', ...(view.home ? [view.home] : [])]);
  const shown = view.visible.some((folder) => {
    if (empty.has(folder)) return false;
    const rel = relative(folder, real);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  });
  return { path: real, mounts: shown ? [] : ['--ro-bind', real, real] };
}

/**
 * Takes the relay's listener off the child's IPC channel, hands it to `serve`, answers and closes
 * the channel. Anything else on the channel (a second message, another handle) closes it too.
 * Contract: never throws.
 */
export function takeListener(child: ChildProcess, serve: (listener: Server) => void): void {
  let taken = false;
  const close = () => {
    if (child.connected) child.disconnect();
  };
  child.on('message', (message: unknown, handle: unknown) => {
    if (taken || !isListenerMessage(message) || !(handle instanceof Server)) {
      if (handle instanceof Server) handle.close();
      else if (handle instanceof Socket) handle.destroy();
      close();
      return;
    }
    taken = true;
    try {
      serve(handle);
    } catch {
      handle.close();
      return close();
    }
    child.send(READY_MESSAGE, () => close());
  });
}
