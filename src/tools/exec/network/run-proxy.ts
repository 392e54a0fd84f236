/**
 * The HTTP(S) proxy of one sandboxed run, in warden's process: the only way out of the sandbox's
 * network namespace. It serves the connections of a listener that lives inside that namespace
 * (sandbox-relay.ts hands it over), and for each one:
 *   CONNECT host:port      an HTTPS (or any TCP) tunnel, by host name; TLS is not intercepted
 *   GET http://host/path   a plain HTTP request in absolute form, forwarded request by request
 * The host must be covered by an entry the run was approved for (network-hosts.ts); a name must
 * resolve to public addresses only (proxy-dial.ts). Every attempt, allowed or refused, is one audit
 * line, written before any byte goes out: no audit line, no connection. Anything else is refused
 * with a status and a reason the command's output shows.
 */
import type http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { connect, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  connectTarget,
  matchingEntry,
  type NetworkEntry,
  type RequestHost,
  requestHost,
} from '../../../policy/network-hosts';
import type { NetworkConnection } from '../../types';
import type { Resolver } from '../../web/web-http';
import { dialAddress, systemLookup } from './proxy-dial';

/** One attempt to go out, as the audit records it. `target`: `CONNECT host:port` or `GET http://host:port/path`. */
export type ProxyConnection = NetworkConnection;

/** Writes one attempt's audit line; the proxy connects nothing whose line was not written. */
export type ProxyAudit = (connection: ProxyConnection) => { ok: true } | { ok: false; error: string };

export type ProxyLimits = {
  /** Connections from the sandbox open at once. */
  maxOpen: number;
  /** Attempts (CONNECTs and requests) in one run; past it the listener closes (one line says so). */
  maxAttempts: number;
  /** How long an outbound connection may take to open. */
  connectTimeoutMs: number;
};

export const PROXY_LIMITS: ProxyLimits = { maxOpen: 128, maxAttempts: 5000, connectTimeoutMs: 30_000 };

export type ProxySummary = {
  allowed: number;
  /** The refused attempts, the first ones (at most 20), with why. */
  refused: { target: string; reason: string }[];
  refusedCount: number;
};

/** Opens the outbound connection to a checked address (tests point it at a loopback server). */
export type ProxyConnect = (to: { address: string; family: 4 | 6; port: number }) => Socket;

const directConnect: ProxyConnect = (to) => connect({ host: to.address, port: to.port, family: to.family });

export type RunProxy = {
  /** Serves every connection `listener` accepts (the sandbox's loopback listener). */
  serve(listener: Server): void;
  summary(): ProxySummary;
  /** Stops listening and closes every connection, both sides. Contract: never rejects. */
  close(): Promise<void>;
};

const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The proxy for one run allowed to reach `entries`. Contract: nothing it does throws into the caller;
 * every failure ends the one connection it concerns, with a status where one can still be sent.
 */
export function startRunProxy(o: {
  entries: readonly NetworkEntry[];
  audit: ProxyAudit;
  lookup?: Resolver;
  connect?: ProxyConnect;
  limits?: Partial<ProxyLimits>;
}): RunProxy {
  // node:http loads with the first run that has hosts, not at start-up (web-http.ts does the same).
  const { createServer, request: httpRequest } = createRequire(import.meta.url)('node:http') as typeof http;
  const limits = { ...PROXY_LIMITS, ...o.limits };
  const lookup = o.lookup ?? systemLookup;
  const open = o.connect ?? directConnect;
  const sockets = new Set<Duplex>();
  const listeners: Server[] = [];
  const refused: ProxySummary['refused'] = [];
  let refusedCount = 0;
  let allowed = 0;
  let attempts = 0;
  let closed = false;

  const track = (s: Duplex) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const stopListening = () => {
    for (const l of listeners) l.close();
  };

  /** Audits one attempt; false when it must not go ahead (refused, or its line could not be written). */
  const record = (c: ProxyConnection): { ok: true } | { ok: false; reason: string } => {
    attempts++;
    const written = safeAudit(o.audit, c);
    if (c.decision === 'deny' || !written.ok) {
      refusedCount++;
      const reason = written.ok
        ? (c.reason ?? c.rule)
        : `the audit line could not be written (${written.error})`;
      if (refused.length < 20) refused.push({ target: c.target, reason });
      if (attempts >= limits.maxAttempts) limitReached();
      return { ok: false, reason };
    }
    allowed++;
    if (attempts >= limits.maxAttempts) limitReached();
    return { ok: true };
  };
  const limitReached = () => {
    if (closed) return;
    safeAudit(o.audit, {
      target: 'LISTEN',
      decision: 'deny',
      rule: 'network-limit',
      reason: `${limits.maxAttempts} connections in one run: the proxy stopped listening; later ones are refused before they reach it`,
    });
    stopListening();
  };

  /** Which entry covers a target, and where to connect; a refusal is audited here. */
  const judge = async (
    target: string,
    host: RequestHost | undefined,
    port: number,
  ): Promise<
    { ok: true; address: string; family: 4 | 6 } | { ok: false; status: number; reason: string }
  > => {
    if (!host) {
      const r = record({
        target,
        decision: 'deny',
        rule: 'network-request',
        reason: 'not a host the proxy can read',
      });
      return { ok: false, status: 400, reason: r.ok ? 'bad request' : r.reason };
    }
    const entry = matchingEntry(o.entries, host, port);
    if (!entry) {
      const reason = `${hostPort(host, port)} is not among the hosts this run may reach (${o.entries.map((e) => e.text).join(', ')})`;
      record({ target, decision: 'deny', rule: 'network-unlisted', reason });
      return { ok: false, status: 403, reason };
    }
    const dial = await dialAddress(entry, host, lookup);
    if (!dial.ok) {
      record({ target, decision: 'deny', rule: dial.rule, reason: dial.reason });
      return { ok: false, status: dial.rule === 'ssrf-address' ? 403 : 502, reason: dial.reason };
    }
    const line = record({
      target,
      decision: 'allow',
      rule: 'network-approved',
      reason: `covered by ${entry.text}`,
    });
    if (!line.ok) return { ok: false, status: 503, reason: line.reason };
    return { ok: true, ...dial.address };
  };

  const tunnel = async (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const authority = req.url ?? '';
    const parsed = connectTarget(authority);
    const target = `CONNECT ${clip(authority)}`;
    const verdict = await judge(target, parsed?.host, parsed?.port ?? 0);
    if (!verdict.ok || closed)
      return refuseRaw(
        client,
        verdict.ok ? 503 : verdict.status,
        verdict.ok ? 'the run ended' : verdict.reason,
      );
    const up = open({ address: verdict.address, family: verdict.family, port: parsed?.port ?? 0 });
    track(up);
    let established = false;
    const timer = setTimeout(() => up.destroy(new Error('timed out')), limits.connectTimeoutMs);
    up.once('connect', () => {
      clearTimeout(timer);
      established = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    up.once('error', (err) => {
      clearTimeout(timer);
      if (!established) refuseRaw(client, 502, `${clip(authority)}: ${err.message}`);
      else client.destroy();
    });
    up.once('close', () => client.destroy());
    client.once('close', () => up.destroy());
  };

  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '';
    const target = `${clip(req.method ?? '?', 16)} ${clip(withoutQuery(raw))}`;
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    if (!url || url.protocol !== 'http:' || url.username !== '' || url.password !== '') {
      const reason = !url
        ? "this is warden's proxy: send requests in absolute form (http://host/path), or CONNECT for https"
        : url.protocol !== 'http:'
          ? `${url.protocol} URLs go through CONNECT, not a plain request`
          : 'a URL with a user name or password is not forwarded';
      record({ target, decision: 'deny', rule: 'network-request', reason });
      return refuseHttp(res, 400, reason);
    }
    const port = url.port === '' ? 80 : Number(url.port);
    const host = requestHost(url.hostname);
    const verdict = await judge(target, host, port);
    if (!verdict.ok || closed)
      return refuseHttp(
        res,
        verdict.ok ? 503 : verdict.status,
        verdict.ok ? 'the run ended' : verdict.reason,
      );
    const up = httpRequest({
      createConnection: () => open({ address: verdict.address, family: verdict.family, port }),
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: { ...endToEnd(req.headers), host: url.host },
      // No agent: the connection is the one opened to the checked address, used for this request only.
      setHost: false,
      timeout: limits.connectTimeoutMs,
    });
    up.on('socket', (s) => track(s));
    up.once('timeout', () => up.destroy(new Error('timed out')));
    up.once('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      answer.pipe(res);
      answer.once('error', () => res.destroy());
    });
    up.once('error', (err) => {
      if (!res.headersSent) refuseHttp(res, 502, `${url.host}: ${err.message}`);
      else res.destroy();
    });
    req.pipe(up);
  };

  // The proxy's HTTP side: it never listens; the sandbox's connections are handed to it one by one.
  const front = createServer({ headersTimeout: 30_000, requestTimeout: 0, keepAliveTimeout: 5_000 });
  front.on('request', (req, res) => {
    forward(req, res).catch(() => res.destroy());
  });
  front.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    tunnel(req, socket, head).catch(() => socket.destroy());
  });
  front.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    const reason = 'an upgrade (WebSocket) goes through CONNECT, not a plain request';
    record({
      target: `${clip(req.method ?? '?', 16)} ${clip(withoutQuery(req.url ?? ''))}`,
      decision: 'deny',
      rule: 'network-request',
      reason,
    });
    refuseRaw(socket, 501, reason);
  });
  front.on('clientError', (_err, socket: Duplex) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });

  return {
    serve(listener) {
      listeners.push(listener);
      listener.on('error', () => listener.close());
      listener.on('connection', (socket: Socket) => {
        if (closed || sockets.size >= limits.maxOpen) return void socket.destroy();
        track(socket);
        front.emit('connection', socket);
      });
      if (closed) listener.close();
    },
    summary: () => ({ allowed, refused: [...refused], refusedCount }),
    close() {
      closed = true;
      stopListening();
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}

function safeAudit(audit: ProxyAudit, c: ProxyConnection): { ok: true } | { ok: false; error: string } {
  try {
    return audit(c);
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The headers a proxy passes on: no hop-by-hop ones, nor any the Connection header names. */
function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(key) || named.has(key)) continue;
    out[key] = value;
  }
  return out;
}

/** A refusal on a raw socket (a CONNECT or an upgrade): the status line and the reason, then the end. */
function refuseRaw(socket: Duplex, status: number, reason: string): void {
  if (!socket.writable) return void socket.destroy();
  const body = `warden: ${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Refused'}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function refuseHttp(res: ServerResponse, status: number, reason: string): void {
  if (res.headersSent) return void res.destroy();
  const body = `warden: ${reason}\n`;
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

function hostPort(host: RequestHost, port: number): string {
  return `${host.kind === 'address' && host.host.includes(':') ? `[${host.host}]` : host.host}:${port}`;
}

/** A URL without its query: what a line keeps of a plain request (a query may carry a token). */
function withoutQuery(url: string): string {
  const at = url.search(/[?#]/);
  return at < 0 ? url : url.slice(0, at);
}

function clip(text: string, max = 300): string {
  // One line, whatever the command sent.
  const line = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
