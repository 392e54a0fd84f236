/**
 * Red team, second pass: a "public" server (127.0.0.1, let through for public.test only) that
 * redirects to this machine by every status and spelling, loops, and a proxy in the environment
 * that would see every request if it were used. The victim is a second server: it must never be hit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ctx, fetchTool, serve, table } from './web2-helpers';

const lookup = () => table({ 'public.test': ['127.0.0.1'], 'inside.test': ['127.0.0.1'] });

describe('redirects to this machine, by every redirect status', () => {
  const targets = (v: number): string[] => [
    `http://127.0.0.1:${v}/`,
    `http://[::ffff:127.0.0.1]:${v}/`,
    `http://[::ffff:7f00:1]:${v}/`,
    `http://[64:ff9b::7f00:1]:${v}/`,
    `http://0x7f.1:${v}/`,
    `http://2130706433:${v}/`,
    `http://localhost.:${v}/`,
    `http://x.LOCALHOST:${v}/`,
    `http://inside.test:${v}/`,
    `http://public.test@127.0.0.1:${v}/`,
    `//127.0.0.1:${v}/`,
    `\\\\127.0.0.1:${v}/`,
  ];

  it.each([301, 302, 303, 307, 308])(
    'status %i: every target refused by the guard, the victim never reached',
    async (status) => {
      const victim = await serve();
      const hop = await serve((req, res) => {
        const to = decodeURIComponent((req.url ?? '/').slice(1));
        res.writeHead(status, { location: to }).end();
      });
      for (const target of targets(victim.port)) {
        const result = await fetchTool(lookup()).execute(
          { url: `http://public.test:${hop.port}/${encodeURIComponent(target)}` },
          ctx(),
        );
        expect(result, target).toMatchObject({ ok: false, data: { blocked: true } });
        if (!result.ok)
          expect(result.error, target).toMatch(/^Blocked by the SSRF guard \(ssrf-(url|address)\): .{20,}/);
      }
      expect(victim.hits).toEqual([]);
    },
  );

  it('a redirect chain that stays on the public host for four hops, then turns private: refused at the fifth', async () => {
    const victim = await serve();
    const hop = await serve((req, res) => {
      const n = Number((req.url ?? '/0').slice(1));
      const location = n < 4 ? `/${n + 1}` : `http://[::1]:${victim.port}/`;
      res.writeHead(n % 2 === 0 ? 307 : 308, { location }).end();
    });
    const result = await fetchTool(lookup()).execute({ url: `http://public.test:${hop.port}/0` }, ctx());
    expect(result).toMatchObject({ ok: false, data: { blocked: true, ruleId: 'ssrf-address' } });
    expect(hop.hits.filter((h) => h.method === 'GET').map((h) => h.url)).toEqual([
      '/0',
      '/1',
      '/2',
      '/3',
      '/4',
    ]);
    expect(victim.hits).toEqual([]);
  });

  it('a two-page loop (A → B → A …) stops after five redirects with the reason, six requests in all', async () => {
    const hop = await serve((req, res) =>
      res.writeHead(302, { location: req.url === '/a' ? '/b' : '/a' }).end(),
    );
    const result = await fetchTool(lookup()).execute({ url: `http://public.test:${hop.port}/a` }, ctx());
    expect(result).toEqual({ ok: false, error: 'Too many redirects (limit 5); the last one pointed to /a.' });
    expect(hop.hits.filter((h) => h.method === 'GET')).toHaveLength(6);
  });

  it('maxRedirects 0: the first redirect is refused, not followed', async () => {
    const victim = await serve();
    const hop = await serve((_req, res) => res.writeHead(301, { location: '/next' }).end());
    const result = await fetchTool(lookup(), { maxRedirects: 0 }).execute(
      { url: `http://public.test:${hop.port}/` },
      ctx(),
    );
    expect(result).toEqual({
      ok: false,
      error: 'Too many redirects (limit 0); the last one pointed to /next.',
    });
    expect(hop.hits.filter((h) => h.method === 'GET')).toHaveLength(1);
    expect(victim.hits).toEqual([]);
  });

  it('a redirect status without a Location is the page itself, not a hop', async () => {
    const hop = await serve((_req, res) =>
      res.writeHead(302, { 'content-type': 'text/plain' }).end('moved, somewhere'),
    );
    const result = await fetchTool(lookup()).execute({ url: `http://public.test:${hop.port}/` }, ctx());
    expect(result.ok && result.output.endsWith('moved, somewhere')).toBe(true);
    expect(hop.hits.filter((h) => h.method === 'GET')).toHaveLength(1);
  });
});

describe('a proxy named by the environment is never used', () => {
  const KEYS = [
    'HTTP_PROXY',
    'http_proxy',
    'HTTPS_PROXY',
    'https_proxy',
    'ALL_PROXY',
    'all_proxy',
    'NO_PROXY',
    'no_proxy',
  ];
  const saved = new Map(KEYS.map((k) => [k, process.env[k]]));
  afterEach(() => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('HTTP_PROXY, http_proxy and ALL_PROXY at 127.0.0.1: the request goes to the checked address, the proxy sees nothing', async () => {
    const proxy = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('from the proxy'),
    );
    const target = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('from the target'),
    );
    for (const k of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy'])
      process.env[k] = `http://127.0.0.1:${proxy.port}`;
    process.env.NO_PROXY = '';
    process.env.no_proxy = '';
    const result = await fetchTool(lookup()).execute(
      { url: `http://public.test:${target.port}/page` },
      ctx(),
    );
    expect(result.ok && result.output.endsWith('from the target')).toBe(true);
    expect(proxy.hits).toEqual([]);
    expect(target.hits.filter((h) => h.method === 'GET')).toEqual([
      { method: 'GET', url: '/page', host: `public.test:${target.port}` },
    ]);
  });

  it('a proxy in the environment cannot be used to reach a private address either: refused before any connection', async () => {
    const proxy = await serve();
    process.env.HTTP_PROXY = `http://127.0.0.1:${proxy.port}`;
    process.env.NO_PROXY = '*';
    const result = await fetchTool(lookup()).execute({ url: 'http://10.0.0.1/' }, ctx());
    expect(result).toMatchObject({ ok: false, data: { blocked: true, ruleId: 'ssrf-address' } });
    expect(proxy.hits).toEqual([]);
  });
});
