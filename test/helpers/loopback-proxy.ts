/**
 * A forward proxy for tests, on 127.0.0.1 only: CONNECT tunnels (counted, by target) and absolute-form
 * HTTP requests (counted, by URL), to 127.0.0.1 targets only. `auth`: the `Proxy-Authorization` it
 * requires (407 otherwise); `refuse`: answer every CONNECT with 403.
 */
import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export type LoopbackProxy = {
  url: string;
  /** `host:port` of every CONNECT, in order. */
  connects: string[];
  /** Absolute URLs of every plain request, in order. */
  forwarded: string[];
  /** The Proxy-Authorization headers seen. */
  auths: (string | undefined)[];
  close(): Promise<void>;
};

export async function startLoopbackProxy(
  o: { auth?: string; refuse?: boolean } = {},
): Promise<LoopbackProxy> {
  const connects: string[] = [];
  const forwarded: string[] = [];
  const auths: (string | undefined)[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    auths.push(req.headers['proxy-authorization']);
    forwarded.push(req.url ?? '');
    if (o.auth && req.headers['proxy-authorization'] !== o.auth) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    if (target.hostname !== '127.0.0.1') {
      res.writeHead(403).end('loopback only');
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const up = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    auths.push(req.headers['proxy-authorization']);
    connects.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    if (o.refuse || host !== '127.0.0.1' || (o.auth && req.headers['proxy-authorization'] !== o.auth)) {
      client.end(
        `HTTP/1.1 ${o.auth && !o.refuse ? '407 Proxy Authentication Required' : '403 Forbidden'}\r\n\r\n`,
      );
      return;
    }
    const up = connect(Number(port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    const end = () => {
      up.destroy();
      client.destroy();
    };
    up.on('error', end);
    client.on('error', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    forwarded,
    auths,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
