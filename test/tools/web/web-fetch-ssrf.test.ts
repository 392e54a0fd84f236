import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebFetchTool } from '../../../src/tools/web/web-fetch';
import type { Resolver } from '../../../src/tools/web/web-http';
import { type LocalServer, startServer, testContext } from './helpers';

let victim: LocalServer;
let publicServer: LocalServer;

/** Test DNS: every name is fake; nothing reaches a real resolver. */
const names: Record<string, string[]> = {
  'evil.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'v6-loop.test': ['::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  // 127.0.0.1 plays the public address here (allowed below); 10.0.0.1 is the private one.
  'mixed.test': ['127.0.0.1', '10.0.0.1'],
  'public.test': ['127.0.0.1'],
  'other-public.test': ['127.0.0.1'],
};
const lookup: Resolver = async (host) => {
  const found = names[host];
  if (!found) throw new Error(`ENOTFOUND ${host}`);
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const allowAddress = (host: string, address: string) =>
  (host === 'public.test' || host === 'mixed.test' || host === 'other-public.test') &&
  address === '127.0.0.1';

beforeAll(async () => {
  victim = await startServer();
  publicServer = await startServer((req, res) => {
    const target = decodeURIComponent((req.url ?? '/').replace(/^\/to\//, ''));
    res.writeHead(302, { location: target }).end();
  });
});
afterAll(async () => {
  await victim.close();
  await publicServer.close();
});

describe('web_fetch SSRF corpus', () => {
  const corpus = (v: number, p: number): string[] => [
    `http://127.0.0.1:${v}/`,
    `http://localhost:${v}/`,
    `http://[::1]:${v}/`,
    `http://0.0.0.0:${v}/`,
    `http://2130706433:${v}/`,
    `http://0x7f.1:${v}/`,
    `http://017700000001:${v}/`,
    `http://0177.0.0.1:${v}/`,
    `http://127.1:${v}/`,
    `http://169.254.169.254:${v}/latest/meta-data/`,
    `http://10.0.0.1:${v}/`,
    `http://172.16.0.1:${v}/`,
    `http://172.31.255.255:${v}/`,
    `http://192.168.1.1:${v}/`,
    `http://[::ffff:127.0.0.1]:${v}/`,
    `http://[::ffff:7f00:1]:${v}/`,
    `http://[fe80::1]:${v}/`,
    `http://[fc00::1]:${v}/`,
    `http://224.0.0.1:${v}/`,
    `http://evil.test:${v}/`,
    `http://EVIL.test.:${v}/`,
    `http://metadata.test:${v}/`,
    `http://v6-loop.test:${v}/`,
    `http://mapped.test:${v}/`,
    `http://mixed.test:${v}/`,
    `http://public.test:${p}/to/${encodeURIComponent(`http://127.0.0.1:${v}/`)}`,
    `http://public.test:${p}/to/${encodeURIComponent(`http://evil.test:${v}/`)}`,
    `http://public.test:${p}/to/${encodeURIComponent(`http://0x7f.1:${v}/`)}`,
    `http://public.test:${p}/to/${encodeURIComponent(`file:///etc/passwd`)}`,
    'file:///etc/passwd',
    `gopher://127.0.0.1:${v}/_GET%20/`,
    `ftp://127.0.0.1:${v}/`,
    `http://user:pass@127.0.0.1:${v}/`,
    `http://public.test@127.0.0.1:${v}/`,
  ];

  it('has at least 20 URLs and refuses every one without touching the victim', async () => {
    const tool = createWebFetchTool({ lookup, allowAddress, rateLimit: { max: 1000, windowMs: 60_000 } });
    const urls = corpus(victim.port, publicServer.port);
    expect(urls.length).toBeGreaterThanOrEqual(20);
    for (const url of urls) {
      const result = await tool.execute({ url }, testContext());
      expect(result.ok, url).toBe(false);
      if (!result.ok)
        expect(result.error, url).toMatch(/Blocked by the SSRF guard \(ssrf-(url|scheme|address)\)/);
    }
    expect(victim.hits).toEqual([]);
    // The redirecting server was reached (it is "public"), so the refusals came from the redirect hop.
    expect(publicServer.hits.filter((h) => h.method === 'GET')).toHaveLength(4);
  });

  it('does not follow a redirect to another (public) host: the model must ask for that host itself, so domain rules see it', async () => {
    const tool = createWebFetchTool({ lookup, allowAddress, rateLimit: { max: 1000, windowMs: 60_000 } });
    const before = victim.hits.length;
    const result = await tool.execute(
      {
        url: `http://public.test:${publicServer.port}/to/${encodeURIComponent(`http://other-public.test:${victim.port}/`)}`,
      },
      testContext(),
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/redirected to another host: http:\/\/other-public\.test/);
    expect(victim.hits.length).toBe(before);
  });

  it('keeps the Host header as the name while connecting to the checked address', async () => {
    const tool = createWebFetchTool({ lookup, allowAddress });
    await tool.execute({ url: `http://public.test:${publicServer.port}/to/x` }, testContext());
    expect(publicServer.hits.at(-1)?.host).toBe(`public.test:${publicServer.port}`);
  });

  it('refuses loopback by default, without the test-only predicate', async () => {
    const tool = createWebFetchTool({ lookup });
    const result = await tool.execute({ url: `http://public.test:${victim.port}/` }, testContext());
    expect(result).toMatchObject({ ok: false, data: { blocked: true, ruleId: 'ssrf-address' } });
    if (!result.ok) expect(result.error).toContain('public.test resolves to 127.0.0.1 is a loopback address');
    expect(victim.hits).toEqual([]);
  });

  it('reports a name that does not resolve as an error, not a block', async () => {
    const tool = createWebFetchTool({ lookup });
    const result = await tool.execute({ url: 'http://nowhere.test/' }, testContext());
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.error).toMatch(/Could not resolve nowhere\.test: ENOTFOUND/);
  });
});
