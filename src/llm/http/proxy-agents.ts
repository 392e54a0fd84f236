/**
 * The connections of a model request through a proxy (proxy-env.ts): an https:// endpoint is reached
 * through a CONNECT tunnel the proxy opens, and TLS runs inside it to the endpoint itself (its
 * certificate is checked as without a proxy, NODE_EXTRA_CA_CERTS included); an http:// endpoint is
 * asked of the proxy in absolute form (`POST http://host/v1/… HTTP/1.1`). Connections are kept alive
 * per proxy as they are per host without one. A failure names the proxy and the variable it came from.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { Agent as HttpsAgent, RequestOptions as HttpsRequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import type { ProxyRoute } from './proxy-env';

/** Kept-alive connections, as node-fetch.ts keeps them without a proxy. */
const KEEP_ALIVE = { keepAlive: true, timeout: 4_000 } as const;

/** The `Proxy-Authorization` header for a proxy URL with credentials. */
export function proxyAuthorization(route: ProxyRoute): string | undefined {
  const { username, password } = route.url;
  if (!username && !password) return undefined;
  const pair = `${decodeURIComponent(username)}:${decodeURIComponent(password)}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

/** An error that says it was the proxy, keeping the socket's message (its `code` is in the text). */
export function proxyError(route: ProxyRoute, what: string): Error {
  // No `code`: the model client's failure message then shows this text, not a bare ECONNREFUSED.
  return new Error(`the proxy ${route.shown} (from ${route.from}) ${what}`);
}

const plain = new Map<string, HttpAgent>();
const tunnels = new Map<string, HttpsAgent>();

/** The keep-alive agent for http:// endpoints through `route`'s proxy. */
export function proxyHttpAgent(route: ProxyRoute): HttpAgent {
  const key = route.url.href;
  let agent = plain.get(key);
  if (!agent) {
    agent = new HttpAgent(KEEP_ALIVE);
    plain.set(key, agent);
  }
  return agent;
}

/**
 * The agent for https:// endpoints through `route`'s proxy: each new connection is a CONNECT to
 * `host:port`, then TLS over the tunnel. `https` and `tls` are passed in: node-fetch.ts loads them
 * with the first https request only.
 */
export function tunnelAgent(
  route: ProxyRoute,
  https: typeof import('node:https'),
  tls: typeof import('node:tls'),
): HttpsAgent {
  const key = route.url.href;
  const known = tunnels.get(key);
  if (known) return known;
  const auth = proxyAuthorization(route);
  class TunnelAgent extends https.Agent {
    override createConnection(
      options: HttpsRequestOptions,
      callback?: (err: Error | null, stream: Duplex) => void,
    ): Duplex | null | undefined {
      const done = callback ?? (() => {});
      const host = String(options.host ?? options.hostname ?? '');
      const port = Number(options.port ?? 443);
      const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      const connect = httpRequest({
        host: route.url.hostname,
        port: route.url.port || 80,
        method: 'CONNECT',
        path: target,
        headers: { host: target, ...(auth ? { 'proxy-authorization': auth } : {}) },
        agent: false,
      });
      connect.once('connect', (res, socket) => {
        if (res.statusCode !== 200) {
          socket.destroy();
          return done(
            proxyError(
              route,
              `refused to open a tunnel to ${target}: ${res.statusCode} ${res.statusMessage ?? ''}`.trim(),
            ),
            socket,
          );
        }
        const secure = tls.connect({
          ...(options as import('node:tls').ConnectionOptions),
          socket,
          servername: options.servername ?? host,
        });
        done(null, secure);
      });
      connect.once('error', (err: NodeJS.ErrnoException) =>
        done(proxyError(route, `cannot be reached: ${err.code ?? err.message}`), connect.socket as Duplex),
      );
      connect.end();
      return undefined;
    }
  }
  const agent = new TunnelAgent(KEEP_ALIVE);
  tunnels.set(key, agent);
  return agent;
}
