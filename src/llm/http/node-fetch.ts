/**
 * `fetch` for the model's HTTP requests over node:http(s), returning a PlainResponse. Node 20's
 * global fetch is undici: its first request loads undici and compiles its HTTP parser (wasm) — ~40 ms
 * before the first model request leaves and ~6 ms before its first byte is read, ~12 MiB of memory
 * (measured); node:http's parser is built in. What the openai package needs of fetch, and what fetch
 * would do: a keep-alive connection per host, the caller's AbortSignal, gzip/deflate/br bodies,
 * redirects followed (at most 5). Stricter than fetch where the conversation is at stake: a redirect
 * is followed only within the origin or to https on the same host — never to another host or port
 * (the request carries the whole conversation; a hostile or broken endpoint must not forward it to an
 * address the person never configured), never from https down to http; the credential goes only to
 * its own origin. Proxies: HTTPS_PROXY / HTTP_PROXY / NO_PROXY (lower case too), as curl reads them
 * (proxy-env.ts): https is tunnelled with CONNECT, TLS still end to end (proxy-agents.ts). Node's own
 * fetch ignores them, and its ProxyAgent is not public in Node 20. NODE_EXTRA_CA_CERTS (a corporate
 * CA) needs nothing here: Node reads it once at start into the CA store every TLS connection uses.
 */
import {
  Agent as HttpAgent,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request as httpRequest,
} from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import { type HeadersInput, PlainHeaders } from './plain-headers';
import { PlainResponse } from './plain-response';
import { proxyAuthorization, proxyError, proxyHttpAgent, tunnelAgent } from './proxy-agents';
import { type ProxyEnv, type ProxyRoute, proxyFor } from './proxy-env';

export type NodeFetchInit = {
  method?: string;
  headers?: HeadersInput;
  body?: string | Uint8Array | ArrayBuffer | null;
  signal?: AbortSignal | null;
};

const MAX_REDIRECTS = 5;
/**
 * Kept-alive connections, closed after 4 s unused: before a server's own idle close (Node's 5 s, most
 * others longer), so a request is not written to a socket the server is closing. The agent applies
 * that timeout to idle sockets only; an answer that streams slowly is the idle timer's business.
 */
const KEEP_ALIVE = { keepAlive: true, timeout: 4_000 } as const;
const httpAgent = new HttpAgent(KEEP_ALIVE);
/** node:https (and TLS under it) loads with the first https request: a local server never needs it. */
type HttpsModules = {
  request: typeof import('node:https').request;
  agent: HttpsAgent;
  https: typeof import('node:https');
  tls: typeof import('node:tls');
};
let https: Promise<HttpsModules> | undefined;
const loadHttps = () =>
  (https ??= Promise.all([import('node:https'), import('node:tls')]).then(([m, tls]) => ({
    request: m.request,
    agent: new m.Agent(KEEP_ALIVE),
    https: m,
    tls,
  })));

/** A `nodeFetch` that reads its proxy variables from `env` (tests; the default reads the process's). */
export function createNodeFetch(env: ProxyEnv) {
  return (input: string | URL | { url: string }, init: NodeFetchInit = {}) => fetchVia(input, init, env);
}

/**
 * Sends one request and resolves when its response headers arrive; the body streams after.
 * Contract: rejects with the socket's own error (its `code`: ECONNREFUSED …), a DOMException named
 * AbortError when `signal` aborts, or a TypeError for a URL, body or redirect it will not follow (or a
 * proxy variable it cannot use); a proxy that cannot be reached or refuses is an Error naming it.
 */
export function nodeFetch(
  input: string | URL | { url: string },
  init: NodeFetchInit = {},
): Promise<PlainResponse> {
  return fetchVia(input, init, process.env);
}

async function fetchVia(
  input: string | URL | { url: string },
  init: NodeFetchInit,
  env: ProxyEnv,
): Promise<PlainResponse> {
  let url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  let method = (init.method ?? 'GET').toUpperCase();
  let body = bodyBytes(init.body);
  const headers = new PlainHeaders(init.headers);
  for (let hop = 0; ; hop++) {
    const res = await send(url, method, headers, body, init.signal ?? undefined, env);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (!(status >= 301 && status <= 308 && status !== 304 && status !== 305 && status !== 306) || !location)
      return responseOf(res, url, hop > 0, init.signal ?? undefined);
    res.resume();
    if (hop >= MAX_REDIRECTS) throw new TypeError(`too many redirects (more than ${MAX_REDIRECTS})`);
    const next = new URL(location, url);
    const refused = redirectRefused(url, next);
    if (refused) throw new TypeError(`the model server redirected to ${next.origin}: ${refused}`);
    // As fetch does: 303 (and 301/302 after a POST) become a GET without a body; 307/308 repeat it.
    if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      headers.delete('content-type');
    }
    // A credential is for the host it was given to, never for where that host points.
    if (next.origin !== url.origin) {
      headers.delete('authorization');
      headers.delete('cookie');
    }
    url = next;
  }
}

/** Why a redirect from `from` to `to` is not followed, or undefined when it is. */
export function redirectRefused(from: URL, to: URL): string | undefined {
  if (to.origin === from.origin) return undefined;
  if (from.protocol === 'https:' && to.protocol !== 'https:')
    return 'refused (https never goes down to http)';
  const upgrade = from.protocol === 'http:' && to.protocol === 'https:' && to.hostname === from.hostname;
  if (upgrade && (to.port === '' || to.port === from.port)) return undefined;
  return 'refused (a redirect may not leave the configured host; set the endpoint to this address if you trust it)';
}

function bodyBytes(body: NodeFetchInit['body']): Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('the model transport sends text or bytes only');
}

function abortError(): DOMException {
  return new DOMException('This operation was aborted', 'AbortError');
}

async function send(
  url: URL,
  method: string,
  headers: PlainHeaders,
  body: Uint8Array | undefined,
  signal: AbortSignal | undefined,
  env: ProxyEnv,
): Promise<IncomingMessage> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`unsupported URL scheme ${url.protocol}`);
  const proxy = proxyFor(url, env);
  if (proxy && 'error' in proxy) throw new TypeError(proxy.error);
  const secure = url.protocol === 'https:' ? await loadHttps() : undefined;
  if (signal?.aborted) throw abortError();
  const outgoing: OutgoingHttpHeaders = Object.fromEntries(headers.entries());
  if (body) outgoing['content-length'] = body.byteLength;
  return new Promise((resolve, reject) => {
    const req = secure
      ? secure.request(url, {
          method,
          headers: outgoing,
          agent: proxy ? tunnelAgent(proxy, secure.https, secure.tls) : secure.agent,
        })
      : proxy
        ? viaProxy(url, method, outgoing, proxy)
        : httpRequest(url, { method, headers: outgoing, agent: httpAgent });
    const onAbort = () => req.destroy(abortError());
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('response', (res) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(res);
    });
    req.once('error', (err: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', onAbort);
      // Through a proxy over plain HTTP, the socket is the proxy's: the error names it.
      const failed =
        proxy && !secure && err.name !== 'AbortError'
          ? proxyError(proxy, `failed the request: ${err.code ?? err.message}`)
          : err;
      reject(failed);
    });
    req.end(body);
  });
}

/** An http:// request asked of the proxy in absolute form, on a kept-alive connection to it. */
function viaProxy(url: URL, method: string, headers: OutgoingHttpHeaders, proxy: ProxyRoute) {
  const auth = proxyAuthorization(proxy);
  return httpRequest({
    host: proxy.url.hostname,
    port: proxy.url.port || 80,
    method,
    path: url.href,
    headers: { ...headers, host: url.host, ...(auth ? { 'proxy-authorization': auth } : {}) },
    agent: proxyHttpAgent(proxy),
  });
}

async function responseOf(
  res: IncomingMessage,
  url: URL,
  redirected: boolean,
  signal: AbortSignal | undefined,
): Promise<PlainResponse> {
  const headers = new PlainHeaders();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const status = res.statusCode ?? 0;
  const empty = status === 204 || status === 304;
  const decoded = empty ? undefined : await decode(res, headers.get('content-encoding'));
  return new PlainResponse(decoded ? bodyOf(decoded, res, signal) : null, {
    status,
    statusText: res.statusMessage ?? '',
    headers,
    url: url.href,
    redirected,
  });
}

async function decode(res: IncomingMessage, encoding: string | null): Promise<Readable> {
  const coding = encoding?.trim().toLowerCase();
  if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== 'deflate' && coding !== 'br') return res;
  // node:zlib loads with the first compressed body; servers rarely compress an event stream.
  const zlib = await import('node:zlib');
  const inflater =
    coding === 'deflate'
      ? zlib.createInflate()
      : coding === 'br'
        ? zlib.createBrotliDecompress()
        : zlib.createGunzip();
  res.once('error', (err) => inflater.destroy(err));
  return res.pipe(inflater);
}

/**
 * The body as an async iterable of bytes. Ending the iteration early (the reader stops, or `signal`
 * aborts) destroys the response; a connection that closes before the body's end throws
 * ("terminated", as undici says), so a cut answer is never taken for a whole one.
 */
async function* bodyOf(
  source: Readable,
  res: IncomingMessage,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  const onAbort = () => res.destroy(abortError());
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of source) yield chunk as Buffer;
    if (!res.complete) throw Object.assign(new TypeError('terminated'), { cause: { code: 'ECONNRESET' } });
  } catch (err) {
    if (signal?.aborted) throw abortError();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!res.complete) res.destroy();
  }
}
