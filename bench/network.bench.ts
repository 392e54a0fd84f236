/**
 * What warden's per-run proxy costs (issue 33 §4), each against the simplest alternative in the same run:
 *   - a plain HTTP request through the proxy (judged, audited, forwarded) vs the same request direct;
 *   - 32 MB through a CONNECT tunnel vs the same bytes over a direct connection;
 *   - a sandboxed `true` with approved hosts (the relay's start and hand-over) vs without (bwrap only).
 * Everything is on 127.0.0.1; the audit sink keeps lines in memory.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, request } from 'node:http';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { PathFence } from '../src/policy/guards/path-guard';
import { networkEntries } from '../src/policy/network-hosts';
import { createExecuteCommandTool, defaultExecuteCommandEffects } from '../src/tools/exec/execute-command';
import { startRunProxy } from '../src/tools/exec/network/run-proxy';
import { findOnPath } from '../src/tools/exec/sandbox';
import type { ToolContext } from '../src/tools/types';
import { allowAllCommands } from '../test/helpers/tool-context';
import { median, printRow, timeRuns } from './stats';
import { benchTempDir } from './temp-dir';

const listen = async <T extends { listen(port: number, host: string): unknown; address(): unknown }>(
  s: T,
) => {
  s.listen(0, '127.0.0.1');
  await once(s as unknown as NodeJS.EventEmitter, 'listening');
  return (s.address() as AddressInfo).port;
};

const upstream = createHttpServer((_req, res) => res.end('ok'));
const upstreamPort = await listen(upstream);
const sink = createServer((s) => {
  s.on('data', () => {});
  s.on('end', () => s.end());
});
const sinkPort = await listen(sink);
const listener = createServer();
const proxyPort = await listen(listener);
let lines = 0;
const proxy = startRunProxy({
  entries: networkEntries([`127.0.0.1:${upstreamPort}`, `127.0.0.1:${sinkPort}`]),
  audit: () => {
    lines++;
    return { ok: true };
  },
});
proxy.serve(listener);

const get = (port: number, path: string) =>
  new Promise<void>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });

const REQUESTS = 300;
await timeRuns(30, () => get(proxyPort, `http://127.0.0.1:${upstreamPort}/warm`));
const viaProxy = await timeRuns(REQUESTS, () => get(proxyPort, `http://127.0.0.1:${upstreamPort}/x`));
const direct = await timeRuns(REQUESTS, () => get(upstreamPort, '/x'));
printRow(`plain request via the proxy (median of ${REQUESTS}, ms)`, median(viaProxy).toFixed(3));
printRow('the same request direct (ms)', median(direct).toFixed(3));
printRow('ratio proxy / direct', (median(viaProxy) / median(direct)).toFixed(2));

const BYTES = 32 * 1024 * 1024;
const chunk = Buffer.alloc(64 * 1024, 1);
async function send(socket: Socket): Promise<void> {
  for (let sent = 0; sent < BYTES; sent += chunk.length)
    if (!socket.write(chunk)) await once(socket, 'drain');
  socket.end();
  await once(socket, 'close');
}
async function tunnelled(): Promise<void> {
  const socket = connect(proxyPort, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(`CONNECT 127.0.0.1:${sinkPort} HTTP/1.1\r\n\r\n`);
  await once(socket, 'data');
  await send(socket);
}
async function straight(): Promise<void> {
  const socket = connect(sinkPort, '127.0.0.1');
  await once(socket, 'connect');
  await send(socket);
}
const tunnel = await timeRuns(5, tunnelled);
const plain = await timeRuns(5, straight);
const mbps = (ms: number) => (BYTES / 1024 / 1024 / (ms / 1000)).toFixed(0);
printRow('32 MB through a CONNECT tunnel (median of 5, MB/s)', mbps(median(tunnel)));
printRow('32 MB over a direct connection (MB/s)', mbps(median(plain)));
printRow('ratio tunnel / direct (time)', (median(tunnel) / median(plain)).toFixed(2));
printRow('audit lines written', String(lines));
await proxy.close();

const bwrap = process.platform === 'linux' ? findOnPath('bwrap') : undefined;
if (!bwrap) printRow('sandbox start with hosts', 'skipped: bubblewrap is not installed');
else {
  const root = benchTempDir('warden-bench-net-');
  const tool = createExecuteCommandTool({ ...defaultExecuteCommandEffects, graceMs: 300 });
  const ctx = (withHosts: boolean): ToolContext => ({
    root,
    fence: new PathFence(root),
    commands: allowAllCommands,
    sandbox: { kind: 'bwrap', path: bwrap },
    signal: new AbortController().signal,
    ...(withHosts
      ? { network: { entries: networkEntries(['registry.npmjs.org']), audit: () => ({ ok: true as const }) } }
      : {}),
  });
  await tool.execute({ command: 'true' }, ctx(true));
  const hosts = await timeRuns(10, () => tool.execute({ command: 'true' }, ctx(true)));
  const none = await timeRuns(10, () => tool.execute({ command: 'true' }, ctx(false)));
  printRow('sandboxed `true` with approved hosts (median of 10, ms)', median(hosts).toFixed(1));
  printRow('sandboxed `true` without (ms)', median(none).toFixed(1));
  printRow('the relay and hand-over cost (ms)', (median(hosts) - median(none)).toFixed(1));
}
upstream.close();
sink.close();
