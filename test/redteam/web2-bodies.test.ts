/**
 * Red team, second pass: what a hostile page sends back. Slow bodies and headers end at the
 * fetch's own timeout; compressed bombs stop at the decoded cap; encodings warden cannot read are
 * refused with a reason; bytes that lie about their type or charset come back as text or are
 * refused; and no control sequence of the page reaches a terminal through the UI's display
 * sanitiser or the headless output guard.
 */
import type { Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { safeChunk } from '../../src/text/safe-output';
import { sanitizeDeep } from '../../src/text/sanitize-deep';
import { createWebSearchTool, type SearchProvider } from '../../src/tools/web/web-search';
import { ctx, fetchTool, serve, table } from './web2-helpers';

/** A high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const lookup = () => table({ 'public.test': ['127.0.0.1'] });
const at = (port: number, path = '/') => ({ url: `http://public.test:${port}${path}` });

describe('slow and endless', () => {
  it('slowloris body (a byte every 20 ms, forever): timed out with the reason, the connection closed', async () => {
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('a'), 20);
      res.on('close', () => {
        clearInterval(timer);
        closed();
      });
    });
    const result = await fetchTool(lookup(), { timeoutMs: 400 }).execute(at(s.port), ctx());
    expect(result).toEqual({ ok: false, error: 'web_fetch timed out after 0.4 s.' });
    await gone;
  });

  it('slowloris headers (a header line every 20 ms, never the blank line): timed out with the reason', async () => {
    const s = await serve((_req, res) => {
      const socket = res.socket as Socket;
      socket.write('HTTP/1.1 200 OK\r\n');
      const timer = setInterval(() => socket.write('x-slow: 1\r\n'), 20);
      socket.on('close', () => clearInterval(timer));
    });
    const result = await fetchTool(lookup(), { timeoutMs: 400 }).execute(at(s.port), ctx());
    expect(result).toEqual({ ok: false, error: `public.test:${s.port}: web_fetch timed out after 0.4 s.` });
  });

  it('a Content-Length of 10 GB over 20 bytes then a hang-up: an error, never 20 bytes shown as the page', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(10 * 1024 ** 3) });
      res.write('twenty bytes of text');
      setImmediate(() => (res.socket as Socket).destroy());
    });
    const result = await fetchTool(lookup()).execute(at(s.port), ctx());
    expect(result.ok).toBe(false);
  });

  it('a binary type with a 10 GB Content-Length is refused from its headers, unread', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(10 * 1024 ** 3) });
      res.write(Buffer.alloc(1024));
    });
    const result = await fetchTool(lookup()).execute(at(s.port), ctx());
    expect(result).toEqual({
      ok: false,
      error: 'Refused: the response is binary (application/zip, 10 GB); web_fetch reads only HTML and text.',
    });
  });
});

describe('compression', () => {
  const big = Buffer.alloc(24 * 1024 * 1024, 'a');
  it.each([
    ['br', brotliCompressSync(big)],
    ['deflate', deflateSync(big)],
    ['x-gzip', gzipSync(big)],
    ['GZIP', gzipSync(big)],
  ])('a %s bomb (24 MB of text from a few KB): reading stops at the decoded cap', async (encoding, body) => {
    expect(body.length).toBeLessThan(64 * 1024);
    const s = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoding }).end(body),
    );
    const result = await fetchTool(lookup(), { maxBytes: 512 * 1024 }).execute(at(s.port), ctx());
    expect(result).toMatchObject({ ok: true, data: { truncatedBody: true } });
    if (result.ok) {
      expect(result.output).toContain(
        '[Stopped reading at 512 KB; the rest of the response was not fetched.]',
      );
      expect(result.output.length).toBeLessThan(9_000);
    }
  });

  it.each(['gzip, gzip', 'gzip, br', 'zstd', 'compress', 'identity;q=0'])(
    'content-encoding %j, which warden does not decode: an error naming it, never the compressed bytes',
    async (encoding) => {
      const s = await serve((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoding })
          .end(gzipSync(gzipSync('x'))),
      );
      const result = await fetchTool(lookup()).execute(at(s.port), ctx());
      expect(result).toMatchObject({ ok: false });
      if (!result.ok)
        expect(result.error).toContain(`unsupported content-encoding (${encoding.toLowerCase()})`);
    },
  );

  it('a gzip body that is not gzip: an error, not garbage shown as text', async () => {
    const s = await serve((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
        .end('plain text, not gzip'),
    );
    const result = await fetchTool(lookup()).execute(at(s.port), ctx());
    expect(result.ok).toBe(false);
  });
});

describe('types and charsets that lie', () => {
  it.each([
    ['image/png', 'text that calls itself an image'],
    ['application/pdf', '%PDF-1.7 but really text'],
    ['video/mp4', 'hello'],
  ])('labelled %s: refused as binary by its label (the safe side), unread', async (type, body) => {
    const s = await serve((_req, res) => res.writeHead(200, { 'content-type': type }).end(body));
    const result = await fetchTool(lookup()).execute(at(s.port), ctx());
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.error).toMatch(/^Refused: the response is binary/);
  });

  it('unlabelled, or application/octet-stream, with NUL bytes in the first KB: refused as binary', async () => {
    for (const headers of [{}, { 'content-type': 'application/octet-stream' }]) {
      const s = await serve((_req, res) => res.writeHead(200, headers).end(Buffer.from('ELF\0\0\0binary')));
      const result = await fetchTool(lookup()).execute(at(s.port), ctx());
      expect(result).toMatchObject({ ok: false });
      if (!result.ok) expect(result.error).toMatch(/^Refused: the response is binary/);
    }
  });

  it.each([
    ['text/plain; charset=utf-7', Buffer.from('+AGEAYgBj-')],
    ['text/plain; charset=no-such-charset', Buffer.from([0x61, 0xff, 0xfe, 0x62])],
    ['text/plain; charset=iso-2022-kr', Buffer.from('abc')],
    ['text/plain', Buffer.from([0x61, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x62])],
    ['text/html; charset="utf-16le"', Buffer.from('<p>odd</p>!', 'utf16le').subarray(1)],
  ])(
    '%s with bytes that are not that charset: text without a lone surrogate, never a throw',
    async (type, body) => {
      const s = await serve((_req, res) => res.writeHead(200, { 'content-type': type }).end(body));
      const result = await fetchTool(lookup()).execute(at(s.port), ctx());
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.output).not.toMatch(LONE_SURROGATE);
    },
  );
});

describe('HTML with no element in it (finding: web_fetch threw from inside linkedom)', () => {
  // linkedom left such a document without a root and document.title threw; the executor turned it
  // into "web_fetch failed: Cannot destructure property 'firstElementChild' …", the page's text lost.
  it.each([
    ['plain text labelled text/html', 200, 'just some text', /just some text$/],
    ['an empty page', 200, '', /Content-Type: text\/html\n*$/],
    ['a doctype alone', 200, '<!doctype html>', /Content-Type: text\/html\n*$/],
    ['a comment alone', 200, '<!-- nothing -->', /Content-Type: text\/html\n*$/],
  ])('%s: the page as text, never a throw', async (_name, status, body, shown) => {
    const s = await serve((_req, res) => res.writeHead(status, { 'content-type': 'text/html' }).end(body));
    const result = await fetchTool(lookup()).execute(at(s.port), ctx());
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.output).toMatch(shown);
  });

  it('a 404 whose text/html body is one line of text: the HTTP error with that line', async () => {
    const s = await serve((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('No such page'),
    );
    const result = await fetchTool(lookup()).execute(at(s.port, '/gone'), ctx());
    expect(result).toEqual({
      ok: false,
      error: `HTTP 404 Not Found from http://public.test:${s.port}/gone\n\nNo such page`,
      data: { status: 404 },
    });
  });
});

/** Sequences a terminal acts on: CSI, OSC (title, clipboard, hyperlink), C1 CSI, BEL, bidi overrides. */
const HOSTILE = '\u001b[2J\u001b]0;pwned\u0007\u001b]52;c;cm0gLXJmIH4=\u0007\u009b31m\u202eevil\u2066';
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('control sequences in the page never reach a terminal', () => {
  const pages: [string, string, string][] = [
    ['text/plain', 'plain text', `before ${HOSTILE} after`],
    ['application/json', 'JSON', JSON.stringify({ a: HOSTILE }).replace(/\\u001b/g, '\u001b')],
    [
      'text/html',
      'HTML text and title',
      `<html><head><title>T${HOSTILE}</title></head><body><p>para ${HOSTILE}</p></body></html>`,
    ],
    [
      'text/html',
      'HTML character references',
      '<html><body><p>refs &#27;[2J &#x1b;]0;pwned&#7; &#x9b;31m &#155; &#x202e;evil &#0; &#x7f;</p></body></html>',
    ],
    [
      'text/html',
      'a link whose text and address carry them',
      `<html><body><a href="/x${HOSTILE}">l${HOSTILE}</a></body></html>`,
    ],
  ];

  it.each(pages)(
    '%s (%s): the display and headless forms of the result hold none',
    async (type, _name, body) => {
      const s = await serve((_req, res) =>
        res.writeHead(200, { 'content-type': `${type}; charset=utf-8` }).end(body),
      );
      const result = await fetchTool(lookup()).execute(at(s.port), ctx());
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(sanitizeDeep(result, 'display').output).not.toMatch(UNSAFE);
      expect(safeChunk(result.output, 'text')).not.toMatch(UNSAFE);
      expect(safeChunk(JSON.stringify(result), 'json')).not.toMatch(UNSAFE);
    },
  );

  it('an HTTP error page and a status text full of them: the error, shown, holds none', async () => {
    const s = await serve((_req, res) => {
      const socket = res.socket as Socket;
      socket.end(
        `HTTP/1.1 500 Bad\u001b]0;pwned\u0007\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(HOSTILE)}\r\n\r\n${HOSTILE}`,
      );
    });
    const result = await fetchTool(lookup()).execute(at(s.port), ctx());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(sanitizeDeep(result, 'display').error).not.toMatch(UNSAFE);
    expect(safeChunk(result.error, 'text')).not.toMatch(UNSAFE);
  });

  it('search results whose title, URL and snippet carry them: the shown list holds none, and each result stays one entry', async () => {
    const provider: SearchProvider = {
      name: `evil${HOSTILE}`,
      search: async () => [
        {
          title: `T${HOSTILE}\n2. fake second result`,
          url: `https://e.test/${HOSTILE}`,
          snippet: `S${HOSTILE}`,
        },
      ],
    };
    const result = await createWebSearchTool(provider).execute({ query: 'q' }, ctx());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(sanitizeDeep(result, 'display').output).not.toMatch(UNSAFE);
    expect((result.data as { results: unknown[] }).results).toHaveLength(1);
  });
});
