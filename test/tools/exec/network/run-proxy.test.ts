/**
 * The run's proxy on its own, on 127.0.0.1: a listener stands in for the sandbox's, a fake resolver
 * gives names public addresses, and the outbound connection is pointed at a loopback "registry"
 * (the address the proxy chose is recorded), so nothing leaves this machine.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { networkEntries } from '../../../../src/policy/network-hosts';
import {
  type ProxyConnection,
  type RunProxy,
  startRunProxy,
} from '../../../../src/tools/exec/network/run-proxy';
import type { Resolver } from '../../../../src/tools/web/web-http';

let upstream: HttpServer;
let upstreamPort: number;
let listener: Server;
let proxyPort: number;
let proxy: RunProxy | undefined;
const lines: ProxyConnection[] = [];
const dialled: string[] = [];
const seenHeaders: Record<string, string | string[] | undefined>[] = [];

const lookup: Resolver = async (name) => {
  if (name === 'registry.test' || name === 'other.test') return [{ address: '8.8.8.8', family: 4 }];
  if (name === 'rebind.test')
    return [
      { address: '8.8.4.4', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
  throw new Error(`getaddrinfo ENOTFOUND ${name}`);
};

beforeEach(async () => {
  lines.length = 0;
  dialled.length = 0;
  seenHeaders.length = 0;
  upstream = createHttpServer((req, res) => {
    seenHeaders.push(req.headers);
    res.end(`upstream ${req.method} ${req.url} host=${req.headers.host}`);
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  upstreamPort = (upstream.address() as AddressInfo).port;
  listener = createServer();
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  proxyPort = (listener.address() as AddressInfo).port;
});

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  listener.close();
});

function start(
  hosts: string[],
  o: {
    audit?: (c: ProxyConnection) => { ok: true } | { ok: false; error: string };
    maxAttempts?: number;
  } = {},
) {
  proxy = startRunProxy({
    entries: networkEntries(hosts),
    audit:
      o.audit ??
      ((c) => {
        lines.push(c);
        return { ok: true };
      }),
    lookup,
    connect: (to) => {
      dialled.push(`${to.address}:${to.port}`);
      return connect(upstreamPort, '127.0.0.1');
    },
    ...(o.maxAttempts ? { limits: { maxAttempts: o.maxAttempts } } : {}),
  });
  proxy.serve(listener);
  return proxy;
}

/** Sends `text` on a fresh connection to the proxy; resolves with everything read until it closes or `until` is seen. */
async function exchange(
  text: string,
  until?: string,
  more?: (s: Socket, got: string) => void,
): Promise<string> {
  const socket = connect(proxyPort, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(text);
  return new Promise((resolve) => {
    let got = '';
    let sentMore = false;
    socket.on('data', (d) => {
      got += String(d);
      if (more && !sentMore && got.includes('\r\n\r\n')) {
        sentMore = true;
        more(socket, got);
      }
      if (until && got.includes(until)) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('close', () => resolve(got));
    socket.on('error', () => resolve(got));
  });
}

const plainGet = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;

describe('CONNECT', () => {
  it('tunnels to a listed name, at the address the resolver gave, and audits the connection first', async () => {
    start(['registry.test']);
    const got = await exchange(
      'CONNECT registry.test:443 HTTP/1.1\r\nHost: registry.test:443\r\n\r\n',
      'upstream GET /pkg',
      (s) => s.write('GET /pkg HTTP/1.1\r\nHost: registry.test\r\nConnection: close\r\n\r\n'),
    );
    expect(got).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\n/);
    expect(got).toContain('upstream GET /pkg host=registry.test');
    expect(dialled).toEqual(['8.8.8.8:443']);
    expect(lines).toEqual([
      {
        target: 'CONNECT registry.test:443',
        decision: 'allow',
        rule: 'network-approved',
        reason: 'covered by registry.test',
      },
    ]);
  });

  it('passes on what the client sent right behind the CONNECT (the first TLS bytes)', async () => {
    start(['registry.test']);
    const got = await exchange(
      'CONNECT registry.test:443 HTTP/1.1\r\n\r\nGET /early HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n',
      'upstream GET /early',
    );
    expect(got).toContain('upstream GET /early');
  });

  it.each([
    ['an unlisted name', ['registry.test'], 'other.test:443', 403, 'network-unlisted', 'not among the hosts'],
    [
      'a listed name on a port no entry names',
      ['registry.test'],
      'registry.test:22',
      403,
      'network-unlisted',
      'not among',
    ],
    [
      'a name that resolves to this machine',
      ['rebind.test'],
      'rebind.test:443',
      403,
      'ssrf-address',
      'loopback',
    ],
    [
      'a name that does not resolve',
      ['nowhere.test'],
      'nowhere.test:443',
      502,
      'network-unresolved',
      'ENOTFOUND',
    ],
    [
      'this machine by address, not named',
      ['registry.test'],
      '127.0.0.1:22',
      403,
      'network-unlisted',
      'not among',
    ],
    ['a target without a port', ['registry.test'], 'registry.test', 400, 'network-request', 'bad request'],
  ])('refuses %s, audited, and connects nothing', async (_name, hosts, target, status, rule, reason) => {
    start(hosts);
    const got = await exchange(`CONNECT ${target} HTTP/1.1\r\n\r\n`);
    expect(got.split('\r\n')[0]).toContain(String(status));
    expect(got).toContain('warden: ');
    expect(dialled).toEqual([]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ target: `CONNECT ${target}`, decision: 'deny', rule });
    if (status !== 400) expect(got).toContain(reason);
  });

  it('an address the person named is reached as it is, loopback included, without resolving anything', async () => {
    start([`127.0.0.1:${upstreamPort}`]);
    const got = await exchange(
      `CONNECT 127.0.0.1:${upstreamPort} HTTP/1.1\r\n\r\n`,
      'upstream GET /direct',
      (s) => s.write('GET /direct HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n'),
    );
    expect(got).toContain('upstream GET /direct');
    expect(dialled).toEqual([`127.0.0.1:${upstreamPort}`]);
  });

  it('no audit line, no connection: a sink that fails refuses with 503', async () => {
    start(['registry.test'], { audit: () => ({ ok: false, error: 'disk full' }) });
    const got = await exchange('CONNECT registry.test:443 HTTP/1.1\r\n\r\n');
    expect(got).toMatch(/^HTTP\/1\.1 503/);
    expect(got).toContain('disk full');
    expect(dialled).toEqual([]);
    expect(proxy?.summary()).toMatchObject({ allowed: 0, refusedCount: 1 });
  });
});

describe('plain HTTP requests in absolute form', () => {
  it('forwards one to a listed host with its Host, without the proxy headers; the line keeps no query', async () => {
    start(['registry.test']);
    const got = await exchange(
      'GET http://registry.test/pkg?token=abc HTTP/1.1\r\nHost: registry.test\r\nProxy-Authorization: Basic eA==\r\nProxy-Connection: keep-alive\r\nConnection: close\r\n\r\n',
    );
    expect(got).toMatch(/^HTTP\/1\.1 200/);
    expect(got).toContain('upstream GET /pkg?token=abc host=registry.test');
    expect(seenHeaders[0]?.['proxy-authorization']).toBeUndefined();
    expect(seenHeaders[0]?.['proxy-connection']).toBeUndefined();
    expect(dialled).toEqual(['8.8.8.8:80']);
    expect(lines).toEqual([
      {
        target: 'GET http://registry.test/pkg',
        decision: 'allow',
        rule: 'network-approved',
        reason: 'covered by registry.test',
      },
    ]);
  });

  it('judges each request of a kept-alive connection by itself', async () => {
    start(['registry.test']);
    const got = await exchange(
      'GET http://registry.test/a HTTP/1.1\r\nHost: registry.test\r\n\r\nGET http://other.test/b HTTP/1.1\r\nHost: other.test\r\nConnection: close\r\n\r\n',
    );
    expect(got).toContain('upstream GET /a');
    expect(got).toContain('403');
    // Pipelined: the refusal needs no lookup, so its line may come first; the answers keep their order.
    expect(got.indexOf('upstream GET /a')).toBeLessThan(got.indexOf('403'));
    expect(lines.map((l) => [l.target, l.decision]).sort()).toEqual([
      ['GET http://other.test/b', 'deny'],
      ['GET http://registry.test/a', 'allow'],
    ]);
  });

  it.each([
    ['a request to the proxy itself', plainGet('/'), 'absolute form'],
    ['an https URL sent plain', plainGet('https://registry.test/'), 'through CONNECT'],
    ['a URL with a password', plainGet('http://u:p@registry.test/'), 'user name or password'],
  ])('refuses %s with 400, audited', async (_name, text, why) => {
    start(['registry.test']);
    const got = await exchange(text);
    expect(got).toMatch(/^HTTP\/1\.1 400/);
    expect(got).toContain(why);
    expect(lines[0]).toMatchObject({ decision: 'deny', rule: 'network-request' });
    expect(dialled).toEqual([]);
  });
});

describe('the proxy’s life', () => {
  it('close() ends open tunnels and stops listening', async () => {
    const p = start(['registry.test']);
    const socket = connect(proxyPort, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('CONNECT registry.test:443 HTTP/1.1\r\n\r\n');
    await once(socket, 'data');
    const closed = once(socket, 'close');
    await p.close();
    await closed;
    const again = connect(proxyPort, '127.0.0.1');
    const [err] = (await once(again, 'error')) as [NodeJS.ErrnoException];
    expect(err.code).toBe('ECONNREFUSED');
  });

  it('past the most attempts of one run it stops listening, and one line says so', async () => {
    start(['registry.test'], { maxAttempts: 2 });
    await exchange('CONNECT other.test:443 HTTP/1.1\r\n\r\n');
    await exchange('CONNECT other.test:443 HTTP/1.1\r\n\r\n');
    expect(lines.map((l) => l.rule)).toEqual(['network-unlisted', 'network-unlisted', 'network-limit']);
    const again = connect(proxyPort, '127.0.0.1');
    const [err] = (await once(again, 'error')) as [NodeJS.ErrnoException];
    expect(err.code).toBe('ECONNREFUSED');
  });

  it('the summary counts what went out and lists what was refused, with why', async () => {
    const p = start(['registry.test']);
    await exchange(plainGet('http://registry.test/x'));
    await exchange('CONNECT other.test:443 HTTP/1.1\r\n\r\n');
    expect(p.summary()).toEqual({
      allowed: 1,
      refusedCount: 1,
      refused: [
        {
          target: 'CONNECT other.test:443',
          reason: 'other.test:443 is not among the hosts this run may reach (registry.test)',
        },
      ],
    });
  });
});
