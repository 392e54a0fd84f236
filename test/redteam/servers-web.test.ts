/**
 * Red team: web_fetch against hostile addresses, names, resolvers and servers. Addresses other than
 * 127.0.0.1 are judged by the guard alone (no network); live servers listen on 127.0.0.1 only and
 * play "public" through the test-only allowAddress predicate for one name.
 */
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkAddress, checkUrl } from '../../src/policy/guards/ssrf-guard';
import { createWebFetchTool } from '../../src/tools/web/web-fetch';
import type { Resolver } from '../../src/tools/web/web-http';
import { type LocalServer, startServer, testContext } from '../tools/web/helpers';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(handler?: Parameters<typeof startServer>[0]): Promise<LocalServer> {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}
/** A tool whose resolver is `lookup` and for which `public.test` at 127.0.0.1 counts as public. */
const toolWith = (lookup: Resolver, extra: Parameters<typeof createWebFetchTool>[0] = {}) =>
  createWebFetchTool({
    lookup,
    allowAddress: (host, address) => host === 'public.test' && address === '127.0.0.1',
    rateLimit: { max: 10_000, windowMs: 60_000 },
    ...extra,
  });
const fixed =
  (map: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = map[host];
    if (!found) throw new Error(`ENOTFOUND ${host}`);
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('the guard refuses more spellings of this machine and its neighbours (no network)', () => {
  it.each([
    'http://１２７.０.０.１/',
    'http://127.0.0.1./',
    'http://127.000.000.001/',
    'http://0x7f.0x0.0x0.0x1/',
    'http://0177.0000.0000.0001/',
    'http://2852039166/',
    'http://0xa9fea9fe/',
    'http://0251.0376.0251.0376/',
    'http://169.254.169.254.:80/',
    'http://100.100.100.200/',
    'http://[fd00:ec2::254]/',
    'http://[0:0:0:0:0:ffff:7f00:1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[0000::1]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[2002:a9fe:a9fe::]/',
    'http://198.18.0.1/',
    'http://192.0.0.192/',
    'http://0.0.0.1/',
    'http://[::]:22/',
    'http://localhost.localdomain.localhost/',
    'HTTP://LOCALHOST/',
  ])('%s', (url) => {
    const verdict = checkUrl(url);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason.length).toBeGreaterThan(10);
  });

  it.each([
    'http://[fe80::1%25eth0]/',
    'http://[::1%25lo]/',
    'http://127.0.0.1%00.example.com/',
    'http://exa mple.com/',
    `http://${'a'.repeat(70)}.com/`,
  ])('an unusual host is refused or parsed to a name, never reached as a literal: %s', (url) => {
    const verdict = checkUrl(url);
    if (verdict.ok) expect(verdict.url.hostname).not.toMatch(/^\[?(127\.|::1|fe80)/);
  });

  it.each([
    '',
    ' ',
    'not-an-ip',
    '127.0.0.1 ',
    '::ffff:127.0.0.1',
    '0',
    '00000000',
    '127.1',
    '0x7f.1',
    '[::1]',
  ])('an address a resolver hands back as %j is refused unless it is public unicast', (address) => {
    expect(checkAddress(address).ok).toBe(false);
  });
});

describe('hostile resolvers', () => {
  it('a name that resolves public on the first hop and private on the second (rebinding across a redirect) is refused', async () => {
    let asked = 0;
    const lookup: Resolver = async () => {
      asked += 1;
      return [{ address: asked === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    };
    const s = await serve((req, res) => {
      if (req.url === '/start') res.writeHead(302, { location: '/next' }).end();
      else res.end('secret');
    });
    const result = await toolWith(lookup).execute(
      { url: `http://public.test:${s.port}/start` },
      testContext(),
    );
    expect(result).toMatchObject({ ok: false, data: { blocked: true, ruleId: 'ssrf-address' } });
    expect(s.hits.filter((h) => h.url === '/next')).toEqual([]);
  });

  it('a resolver that never answers: the fetch times out with a reason', async () => {
    const lookup: Resolver = () => new Promise(() => {});
    const result = await toolWith(lookup, { timeoutMs: 300 }).execute(
      { url: 'http://public.test/' },
      testContext(),
    );
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.error).toMatch(/timed out after 0\.3 s/);
  });

  it.each([
    ['no addresses', []],
    ['an address that is not one', ['not-an-ip']],
    ['a public and an unspecified one', ['127.0.0.1', '0.0.0.0']],
  ])('a resolver that answers %s: refused or an error, nothing fetched', async (_n, addresses) => {
    const s = await serve();
    const result = await toolWith(fixed({ 'public.test': addresses })).execute(
      { url: `http://public.test:${s.port}/` },
      testContext(),
    );
    expect(result.ok).toBe(false);
    expect(s.hits).toEqual([]);
  });
});

describe('hostile servers', () => {
  const lookup = fixed({ 'public.test': ['127.0.0.1'] });

  it('a redirect loop to itself stops at the limit with a reason', async () => {
    const s = await serve((_req, res) => res.writeHead(301, { location: '/again' }).end());
    const result = await toolWith(lookup).execute({ url: `http://public.test:${s.port}/` }, testContext());
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.error).toMatch(/Too many redirects \(limit 5\)/);
    expect(s.hits.filter((h) => h.method === 'GET')).toHaveLength(6);
  });

  it.each([
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a protocol-relative loopback', '//127.0.0.1/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['a decimal loopback', 'http://2130706433/'],
    ['localhost', 'http://localhost/'],
    ['a file', 'file:///etc/passwd'],
  ])('a redirect to %s is refused by the guard', async (_n, location) => {
    const s = await serve((_req, res) => res.writeHead(307, { location }).end());
    const result = await toolWith(lookup).execute({ url: `http://public.test:${s.port}/` }, testContext());
    expect(result).toMatchObject({ ok: false, data: { blocked: true } });
  });

  it('a redirect to a Location that is not a URL is an error with a reason', async () => {
    const s = await serve((_req, res) => res.writeHead(302, { location: 'http://[::1' }).end());
    const result = await toolWith(lookup).execute({ url: `http://public.test:${s.port}/` }, testContext());
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.error).toMatch(/invalid location|Blocked/);
  });

  it('a body cut before its Content-Length: an error, never the part shown as the whole page', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100000' });
      res.write('the first part of the page, then the connection dies');
      setImmediate(() => (res.socket as Socket).destroy());
    });
    const result = await toolWith(lookup).execute({ url: `http://public.test:${s.port}/` }, testContext());
    expect(result.ok).toBe(false);
  });

  it('headers that never end (64 KiB of them): an error, no hang', async () => {
    const s = await serve((_req, res) => {
      const socket = res.socket as Socket;
      socket.write(`HTTP/1.1 200 OK\r\nx-a: ${'a'.repeat(64 * 1024)}\r\n`);
    });
    const result = await toolWith(lookup, { timeoutMs: 5_000 }).execute(
      { url: `http://public.test:${s.port}/` },
      testContext(),
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).not.toMatch(/timed out/);
  });

  it('a server that accepts and never answers: timed out with a reason', async () => {
    const s = await serve(() => {});
    const result = await toolWith(lookup, { timeoutMs: 300 }).execute(
      { url: `http://public.test:${s.port}/` },
      testContext(),
    );
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.error).toMatch(/timed out after 0\.3 s/);
  });
});
