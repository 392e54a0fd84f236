// The model transport over node:http (src/llm/http/node-fetch.ts): what fetch would do for the
// openai package — bodies both ways, a stream read as it arrives, abort, network errors with their
// code, compressed bodies, redirects (credentials kept to their origin), a cut connection.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFetch, redirectRefused } from '../../../src/llm/http/node-fetch';
import { PlainHeaders } from '../../../src/llm/http/plain-headers';

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(
  handle: (req: Seen, res: ServerResponse) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const one = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(parts).toString('utf8'),
    };
    seen.push(one);
    handle(one, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('nodeFetch', () => {
  it('sends the method, headers and body; answers status, headers and text', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-request-id': 'r1' });
      res.end('{"ok":true}');
    });
    const res = await nodeFetch(`${url}/v1/chat`, {
      method: 'POST',
      headers: new PlainHeaders({ Authorization: 'Bearer k', 'content-type': 'application/json' }),
      body: '{"a":1}',
    });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/chat', body: '{"a":1}' });
    expect(seen[0]?.headers.authorization).toBe('Bearer k');
    expect([res.ok, res.status, res.statusText, res.headers.get('X-Request-Id')]).toEqual([
      true,
      201,
      'Made',
      'r1',
    ]);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.bodyUsed).toBe(true);
  });

  it('streams: the first event is readable while the server still holds the rest', async () => {
    let finish = () => {};
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const res = await nodeFetch(url, { method: 'POST', body: '{}' });
    const reader = res.body?.[Symbol.asyncIterator]();
    const first = await reader?.next();
    expect(new TextDecoder().decode(first?.value)).toBe('data: one\n\n');
    finish();
    let rest = '';
    for (;;) {
      const next = await reader?.next();
      if (!next || next.done) break;
      rest += new TextDecoder().decode(next.value);
    }
    expect(rest).toBe('data: two\n\n');
  });

  it('abort: before sending, and while the body streams, rejects with an AbortError', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200);
      res.write('part');
    });
    const gone = new AbortController();
    gone.abort();
    await expect(nodeFetch(url, { signal: gone.signal })).rejects.toMatchObject({ name: 'AbortError' });
    const midway = new AbortController();
    const res = await nodeFetch(url, { signal: midway.signal });
    const reader = res.body?.[Symbol.asyncIterator]();
    await reader?.next();
    midway.abort();
    await expect(reader?.next()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a reader that stops early ends the response (the server sees the connection go)', async () => {
    let closed: Promise<void> = Promise.resolve();
    const { url } = await serve((_req, res) => {
      closed = new Promise((resolve) => res.once('close', () => resolve()));
      res.writeHead(200);
      res.write('first');
    });
    const res = await nodeFetch(url);
    for await (const _piece of res.body ?? []) break;
    await closed;
  });

  it('a refused connection rejects with its code', async () => {
    const { url } = await serve(() => {});
    await new Promise((r) => servers.pop()?.close(r));
    await expect(nodeFetch(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('https goes through TLS (loaded with the first https request): a plain-HTTP server fails the handshake', async () => {
    const { url } = await serve((_req, res) => res.end('plain'));
    await expect(nodeFetch(url.replace('http:', 'https:'))).rejects.toMatchObject({
      code: expect.stringMatching(/^ERR_SSL|EPROTO|ECONNRESET/),
    });
  });

  it('a gzip body is read as text', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync('data: packed\n\n'));
    });
    expect(await (await nodeFetch(url)).text()).toBe('data: packed\n\n');
  });

  it('a connection cut before the end of the body errors the stream ("terminated"), never a short success', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part');
      setImmediate(() => res.socket?.destroy());
    });
    const res = await nodeFetch(url);
    await expect(res.text()).rejects.toThrow(/terminated|aborted/);
  });

  it('redirects within the origin: 307 repeats the POST, 303 becomes a GET, the credential stays', async () => {
    const { url, seen } = await serve((req, res) => {
      if (req.url === '/307') res.writeHead(307, { location: '/here' }).end();
      else if (req.url === '/303') res.writeHead(303, { location: '/here' }).end();
      else res.end(`${req.method} ${req.body}`);
    });
    const post = { method: 'POST', body: 'b', headers: { authorization: 'Bearer k' } };
    const kept = await nodeFetch(`${url}/307`, post);
    expect([await kept.text(), kept.redirected, kept.url]).toEqual(['POST b', true, `${url}/here`]);
    expect(await (await nodeFetch(`${url}/303`, post)).text()).toBe('GET ');
    expect(seen.at(-1)?.headers.authorization).toBe('Bearer k');
  });

  it('a redirect to another host or port is refused: the conversation never goes where nobody configured it', async () => {
    const other = await serve((_req, res) => res.end('elsewhere'));
    const { url } = await serve((_req, res) => res.writeHead(307, { location: `${other.url}/there` }).end());
    await expect(
      nodeFetch(url, { method: 'POST', body: 'the conversation', headers: { authorization: 'Bearer k' } }),
    ).rejects.toThrow(/redirected to http:\/\/127\.0\.0\.1:\d+: refused/);
    expect(other.seen).toHaveLength(0);
  });

  it.each([
    ['http://api.local/v1/a', 'http://api.local/v1/b', true],
    ['http://api.local/v1', 'https://api.local/v1', true],
    ['http://api.local:8080/v1', 'https://api.local:8080/v1', true],
    ['https://api.local/v1', 'http://api.local/v1', false],
    ['https://api.local/v1', 'https://other.example/v1', false],
    ['http://api.local:8080/v1', 'http://api.local:9090/v1', false],
    ['http://api.local/v1', 'https://api.local.evil.example/v1', false],
  ])('a redirect from %s to %s is followed: %s', (from, to, followed) => {
    expect(redirectRefused(new URL(from), new URL(to)) === undefined).toBe(followed);
  });

  it('more than 5 redirects is an error', async () => {
    const { url } = await serve((_req, res) => res.writeHead(302, { location: '/again' }).end());
    await expect(nodeFetch(url)).rejects.toThrow(/too many redirects/);
  });
});

describe('PlainHeaders', () => {
  it('names are case-insensitive, repeated values join, iteration is sorted; a bad name throws', () => {
    const h = new PlainHeaders([
      ['X-B', '1'],
      ['x-b', '2'],
      ['Content-Type', 'text/plain'],
    ]);
    expect(h.get('x-B')).toBe('1, 2');
    expect([...h]).toEqual([
      ['content-type', 'text/plain'],
      ['x-b', '1, 2'],
    ]);
    h.set('X-B', '3');
    h.delete('content-type');
    expect([...h.entries()]).toEqual([['x-b', '3']]);
    expect(new PlainHeaders(h).get('x-b')).toBe('3');
    expect(() => h.set('bad name\r\nx', 'v')).toThrow(TypeError);
  });
});
