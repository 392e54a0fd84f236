import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSearchTool, createWebTools, type SearchProvider } from '../../../src/tools/web/web-search';
import { createSearxngProvider } from '../../../src/tools/web/web-searxng';
import { type LocalServer, startServer, testContext } from './helpers';

let fake: LocalServer;
let lastQuery: URLSearchParams | undefined;
let lastAuth: string | undefined;

const SEARXNG_ANSWER = {
  query: 'warden gate',
  number_of_results: 3,
  results: [
    {
      url: 'https://example.com/gates',
      title: 'Gates explained',
      content: 'A gate  stops\n every call.',
      engine: 'ddg',
    },
    { url: 'javascript:alert(1)', title: 'Bad', content: 'ignored' },
    { url: 'https://example.org/plain', content: '' },
  ],
  suggestions: [],
};

beforeAll(async () => {
  fake = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    lastQuery = url.searchParams;
    lastAuth = req.headers.authorization;
    const q = url.searchParams.get('q');
    if (url.pathname === '/prefix/search' || url.pathname === '/search') {
      if (q === 'forbidden') return void res.writeHead(403).end('Forbidden');
      if (q === 'broken') return void res.writeHead(500, 'Internal Server Error').end();
      if (q === 'html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      if (q === 'nothing')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"results":[]}');
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(SEARXNG_ANSWER));
    }
    res.writeHead(404).end();
  });
});
afterAll(() => fake.close());

describe('SearXNG provider', () => {
  it('asks GET {url}/search?q=…&format=json with the configured headers and maps the results', async () => {
    const provider = createSearxngProvider({
      url: `http://127.0.0.1:${fake.port}`,
      headers: { authorization: 'Bearer t' },
    });
    const results = await provider.search('warden gate', new AbortController().signal);
    expect(lastQuery?.get('q')).toBe('warden gate');
    expect(lastQuery?.get('format')).toBe('json');
    expect(lastAuth).toBe('Bearer t');
    expect(results).toEqual([
      { url: 'https://example.com/gates', title: 'Gates explained', snippet: 'A gate stops every call.' },
      { url: 'https://example.org/plain', title: 'https://example.org/plain', snippet: '' },
    ]);
  });

  it('keeps a path prefix in the instance URL', async () => {
    const provider = createSearxngProvider({ url: `http://127.0.0.1:${fake.port}/prefix/` });
    expect(await provider.search('x', new AbortController().signal)).toHaveLength(2);
  });

  it.each([
    ['forbidden', 'add "json" to search.formats'],
    ['broken', 'SearXNG answered HTTP 500 Internal Server Error.'],
    ['html', 'SearXNG did not answer with JSON.'],
  ])('explains a failure (%s)', async (query, message) => {
    const provider = createSearxngProvider({ url: `http://127.0.0.1:${fake.port}` });
    await expect(provider.search(query, new AbortController().signal)).rejects.toThrow(message);
  });
});

describe('web_search tool', () => {
  const searxng = () => createSearxngProvider({ url: `http://127.0.0.1:${fake.port}` });

  it('lists titles, URLs and snippets', async () => {
    const result = await createWebSearchTool(searxng()).execute({ query: 'warden gate' }, testContext());
    expect(result).toMatchObject({ ok: true });
    if (result.ok) {
      expect(result.output).toBe(
        'Results for "warden gate" (via searxng):\n\n' +
          '1. Gates explained\n   https://example.com/gates\n   A gate stops every call.\n\n' +
          '2. https://example.org/plain\n   https://example.org/plain',
      );
    }
  });

  it('says when nothing was found', async () => {
    const result = await createWebSearchTool(searxng()).execute({ query: 'nothing' }, testContext());
    expect(result).toMatchObject({ ok: true, output: 'No results for "nothing".' });
  });

  it('turns provider failures into a result', async () => {
    const result = await createWebSearchTool(searxng()).execute({ query: 'broken' }, testContext());
    expect(result).toEqual({
      ok: false,
      error: 'web_search failed: SearXNG answered HTTP 500 Internal Server Error.',
    });
  });

  const hanging: SearchProvider = {
    name: 'hang',
    search: (_q, signal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
  };

  it('times out a provider that never answers', async () => {
    const result = await createWebSearchTool(hanging, { timeoutMs: 50 }).execute(
      { query: 'x' },
      testContext(),
    );
    expect(result).toEqual({ ok: false, error: 'web_search timed out after 0.05 s.' });
  });

  it('stops when the task is cancelled', async () => {
    const controller = new AbortController();
    const pending = createWebSearchTool(hanging).execute({ query: 'x' }, testContext(controller.signal));
    controller.abort();
    expect(await pending).toEqual({ ok: false, error: 'web_search was cancelled.' });
  });
});

describe('createWebTools', () => {
  it('offers web_search only when a provider is configured', () => {
    expect(createWebTools().map((t) => t.name)).toEqual(['web_fetch']);
    expect(
      createWebTools({ search: { kind: 'searxng', url: 'http://127.0.0.1:1' } }).map((t) => t.name),
    ).toEqual(['web_fetch', 'web_search']);
    const provider: SearchProvider = { name: 'custom', search: async () => [] };
    const tools = createWebTools({ search: { kind: 'provider', provider } });
    expect(tools.map((t) => [t.name, t.kind])).toEqual([
      ['web_fetch', 'network'],
      ['web_search', 'network'],
    ]);
  });
});
