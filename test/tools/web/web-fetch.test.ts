import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createWebFetchTool, type WebFetchEffects, webFetchDomain } from '../../../src/tools/web/web-fetch';
import type { Resolver } from '../../../src/tools/web/web-http';
import { type LocalServer, startServer, testContext } from './helpers';

let server: LocalServer;
let base: string;
/** Set by the endless endpoint when the client hangs up, proving the read was aborted. */
let endlessClosed: Promise<number>;
let resolveEndless: (bytes: number) => void;

const ARTICLE = `<!doctype html><html><head><title>Guide to Gates</title><script>var secret = 'tracking';</script></head>
<body><nav><a href="/home">Home</a> | <a href="/about">About</a></nav>
<article><h1>Guide to Gates</h1>
${'<p>A gate stops every tool call that changes the world, and a person decides what happens next, with the diff in view. '.repeat(4)}</p>
<h2>Why it matters</h2><p>Read <a href="/docs/policy">the policy docs</a> before you approve anything at all, twice, for safety.</p>
<ul><li>approve once</li><li>reject with a reason</li></ul>
<pre><code>warden --mode manual</code></pre></article>
<footer>© 2026</footer><style>.x{color:red}</style></body></html>`;

const routes: Record<string, (res: import('node:http').ServerResponse) => void> = {
  '/article': (res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
  '/tiny': (res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<html><body><p>Hi <b>there</b></p></body></html>'),
  '/json': (res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"a": [1, 2, {"b": null}]}\n'),
  '/text': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(20_000)),
  '/png': (res) =>
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': '2048' }).end(Buffer.alloc(2048, 1)),
  '/unlabelled-binary': (res) => res.writeHead(200).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])),
  '/latin1': (res) =>
    res
      .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
      .end(Buffer.from([0x63, 0x61, 0x66, 0xe9])),
  '/missing': (res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page'),
  '/gzip-bomb': (res) =>
    res
      .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
      .end(gzipSync(Buffer.alloc(20 * 1024 * 1024, 'a'))),
  '/hang': () => {},
  '/hang-body': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('partial');
  },
  '/endless': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'z');
    let sent = 0;
    const pump = () => {
      while (!res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    res.on('close', () => resolveEndless(sent));
    pump();
  },
};

const lookup: Resolver = async (host) => {
  if (host === 'public.test') return [{ address: '127.0.0.1', family: 4 }];
  throw new Error(`ENOTFOUND ${host}`);
};
const allowAddress = (host: string, address: string) => host === 'public.test' && address === '127.0.0.1';
const tool = (extra: WebFetchEffects = {}) => createWebFetchTool({ lookup, allowAddress, ...extra });

beforeAll(async () => {
  endlessClosed = new Promise((resolve) => {
    resolveEndless = resolve;
  });
  server = await startServer((req, res) => {
    const path = req.url ?? '/';
    const hops = /^\/r\/(\d+)$/.exec(path);
    if (hops) {
      const n = Number(hops[1]);
      if (n === 0) return void res.writeHead(200, { 'content-type': 'text/plain' }).end('arrived');
      return void res.writeHead(301, { location: `/r/${n - 1}` }).end();
    }
    const route = routes[path];
    if (route) route(res);
    else res.writeHead(500).end();
  });
  base = `http://public.test:${server.port}`;
});
afterAll(() => server.close());

describe('web_fetch', () => {
  it('turns an article into markdown with absolute links and no scripts', async () => {
    const result = await tool().execute({ url: `${base}/article` }, testContext());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.output).toMatch(
      /^# Guide to Gates\nURL: http:\/\/public\.test:\d+\/article\nContent-Type: text\/html/,
    );
    expect(result.output).toContain('## Why it matters');
    expect(result.output).toContain(`[the policy docs](${base}/docs/policy)`);
    expect(result.output).toMatch(/-\s+approve once/);
    expect(result.output).toContain('warden --mode manual');
    expect(result.output).not.toContain('tracking');
    expect(result.output).not.toContain('color:red');
  });

  it('falls back to the body when Readability finds no article', async () => {
    const result = await tool().execute({ url: `${base}/tiny` }, testContext());
    expect(result).toMatchObject({ ok: true });
    if (result.ok) expect(result.output).toContain('Hi **there**');
  });

  it('returns JSON as is', async () => {
    const result = await tool().execute({ url: `${base}/json` }, testContext());
    expect(result.ok && result.output.endsWith('{"a": [1, 2, {"b": null}]}\n')).toBe(true);
  });

  it('decodes the declared charset', async () => {
    const result = await tool().execute({ url: `${base}/latin1` }, testContext());
    expect(result.ok && result.output.endsWith('café')).toBe(true);
  });

  it.each(['/png', '/unlabelled-binary'])('refuses binary content (%s)', async (path) => {
    const result = await tool().execute({ url: `${base}${path}` }, testContext());
    expect(result).toMatchObject({ ok: false });
    if (!result.ok)
      expect(result.error).toMatch(
        /^Refused: the response is binary \(.+\); web_fetch reads only HTML and text\.$/,
      );
  });

  it('caps the output and says how much was cut', async () => {
    const result = await tool().execute({ url: `${base}/text` }, testContext());
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.output).toContain('[Cut: 12000 more characters not shown.]');
      expect(result.output.length).toBeLessThan(8_200);
    }
  });

  it('reports HTTP errors with the status', async () => {
    const result = await tool().execute({ url: `${base}/missing` }, testContext());
    expect(result).toMatchObject({ ok: false, data: { status: 404 } });
    if (!result.ok)
      expect(result.error).toMatch(
        /^HTTP 404 Not Found from http:\/\/public\.test:\d+\/missing\n\nno such page$/,
      );
  });

  it('follows up to 5 redirects, checking each hop', async () => {
    const result = await tool().execute({ url: `${base}/r/5` }, testContext());
    expect(result.ok && result.output).toMatch(
      /URL: http:\/\/public\.test:\d+\/r\/0 \(redirected from .*\/r\/5\)[\s\S]*arrived$/,
    );
    const before = server.hits.filter((h) => /^\/r\//.test(h.url)).length;
    const refused = await tool().execute({ url: `${base}/r/6` }, testContext());
    expect(refused).toMatchObject({
      ok: false,
      error: 'Too many redirects (limit 5); the last one pointed to /r/0.',
    });
    expect(server.hits.filter((h) => /^\/r\//.test(h.url)).length - before).toBe(6);
  });

  it('stops reading an endless body at 5 MB and hangs up', async () => {
    const result = await tool().execute({ url: `${base}/endless` }, testContext());
    expect(result).toMatchObject({ ok: true, data: { truncatedBody: true } });
    if (result.ok)
      expect(result.output).toContain('[Stopped reading at 5 MB; the rest of the response was not fetched.]');
    expect(await endlessClosed).toBeGreaterThanOrEqual(5 * 1024 * 1024 - 64 * 1024);
  });

  it('applies the cap to decompressed bytes (a gzip bomb)', async () => {
    const result = await tool({ maxBytes: 1024 * 1024 }).execute({ url: `${base}/gzip-bomb` }, testContext());
    expect(result).toMatchObject({ ok: true, data: { truncatedBody: true } });
    if (result.ok) expect(result.output).toContain('[Stopped reading at 1 MB;');
  });

  it('times out', async () => {
    const result = await tool({ timeoutMs: 150 }).execute({ url: `${base}/hang` }, testContext());
    expect(result).toEqual({
      ok: false,
      error: 'public.test:' + server.port + ': web_fetch timed out after 0.15 s.',
    });
  });

  it('times out a body that stops arriving', async () => {
    const result = await tool({ timeoutMs: 150 }).execute({ url: `${base}/hang-body` }, testContext());
    expect(result).toEqual({ ok: false, error: 'web_fetch timed out after 0.15 s.' });
  });

  it('stops when the task is cancelled', async () => {
    const controller = new AbortController();
    const pending = tool().execute({ url: `${base}/hang` }, testContext(controller.signal));
    await vi.waitFor(() => expect(server.hits.some((h) => h.url === '/hang')).toBe(true));
    controller.abort();
    expect(await pending).toMatchObject({
      ok: false,
      error: expect.stringContaining('web_fetch was cancelled.'),
    });
  });

  it('allows 30 requests a minute per tool instance, then explains the limit', async () => {
    let now = 1_000_000;
    const limited = tool({ now: () => now });
    for (let i = 0; i < 30; i++)
      expect((await limited.execute({ url: `${base}/json` }, testContext())).ok).toBe(true);
    const refused = await limited.execute({ url: `${base}/json` }, testContext());
    expect(refused).toEqual({
      ok: false,
      error: 'Rate limit: web_fetch allows 30 requests per 60 s; try again in 60 s.',
    });
    now += 60_000;
    expect((await limited.execute({ url: `${base}/json` }, testContext())).ok).toBe(true);
  });
});

describe('webFetchDomain', () => {
  it.each([
    [{ url: 'https://Docs.Example.COM./a?b' }, 'docs.example.com'],
    [{ url: 'http://[::1]:8080/' }, '[::1]'],
    [{ url: 'not a url' }, ''],
    [{}, ''],
    [null, ''],
  ])('%j → %j', (args, domain) => {
    expect(webFetchDomain(args)).toBe(domain);
  });
});
