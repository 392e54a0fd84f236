import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolContext } from '../../../src/tools/types';
import { makeToolContext } from '../../helpers/tool-context';

export type Hit = { method: string; url: string; host: string | undefined };
export type LocalServer = { port: number; hits: Hit[]; close(): Promise<void> };

/** An HTTP server on 127.0.0.1 (port 0) that records every request it receives. */
export async function startServer(
  handler: http.RequestListener = (_req, res) => res.end('ok'),
): Promise<LocalServer> {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host });
    handler(req, res);
  });
  // Count raw connections too: a guard that connected but sent nothing must still show up.
  server.on('connection', () => hits.push({ method: 'CONNECT', url: '', host: undefined }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A ToolContext on a throw-away project directory (see test/helpers/tool-context.ts). */
export function testContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return makeToolContext({ prefix: 'warden-web-', signal }).ctx;
}
