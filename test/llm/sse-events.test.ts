import OpenAI from 'openai';
import { Stream } from 'openai/streaming';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatStreamChunks } from '../../src/llm/sse-events';

/** What a reader made of a stream: the chunks in order, then how it ended. */
type Reading = { chunks: unknown[]; ended: string };

const headers = { get: () => null };
const describeError = (err: unknown): string =>
  err instanceof OpenAI.APIError
    ? `APIError ${err.message}`
    : err instanceof SyntaxError
      ? 'SyntaxError'
      : `${(err as Error)?.constructor?.name}: ${(err as Error)?.message}`;

async function* piecesOf(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut <= at) continue;
    yield bytes.slice(at, cut);
    at = cut;
  }
}

/** The openai package's own reader: the reference. */
async function byPackage(bytes: Uint8Array, cuts: number[]): Promise<Reading> {
  const chunks: unknown[] = [];
  const response = { body: piecesOf(bytes, cuts), headers } as unknown as Response;
  try {
    for await (const chunk of Stream.fromSSEResponse(response, new AbortController())) chunks.push(chunk);
    return { chunks, ended: 'end' };
  } catch (err) {
    return { chunks, ended: describeError(err) };
  }
}

async function byPieces(bytes: Uint8Array, cuts: number[]): Promise<Reading> {
  const chunks: unknown[] = [];
  try {
    for await (const batch of chatStreamChunks({ body: piecesOf(bytes, cuts), headers }, () => {}))
      chunks.push(...batch);
    return { chunks, ended: 'end' };
  } catch (err) {
    return { chunks, ended: describeError(err) };
  }
}

const chunk = (i: number) =>
  JSON.stringify({ id: `c${i}`, choices: [{ index: 0, delta: { content: `é${i}✓` } }] });
const STREAMS: [name: string, text: string][] = [
  ['plain events and [DONE]', `data: ${chunk(1)}\n\ndata: ${chunk(2)}\n\ndata: [DONE]\n\n`],
  ['CRLF lines', `data: ${chunk(1)}\r\n\r\ndata: ${chunk(2)}\r\n\r\n`],
  ['lone CR lines', `data: ${chunk(1)}\r\rdata: ${chunk(2)}\r\r`],
  [
    'mixed endings, comments, other fields',
    `: hi\nid: 3\nretry: 5\ndata: ${chunk(1)}\r\n\nevent: x\ndata:${chunk(2)}\n\n`,
  ],
  ['data over several lines', `data: {"id":"m",\ndata: "choices":[]}\n\n`],
  ['data over several CRLF lines', `data: {"id":"m",\r\ndata: "choices":[]}\r\n\r\n`],
  [
    'events after [DONE] (even unreadable) are skipped',
    `data: ${chunk(1)}\n\ndata: [DONE]\n\ndata: {nope\n\n`,
  ],
  ['a last event without its blank line is dropped', `data: ${chunk(1)}\n\ndata: ${chunk(2)}\n`],
  ['a stream that ends on a CR', `data: ${chunk(1)}\n\r`],
  [
    'an error object after chunks',
    `data: ${chunk(1)}\n\ndata: {"error":{"message":"overloaded","code":"x"}}\n\ndata: ${chunk(2)}\n\n`,
  ],
  ['unreadable JSON', `data: ${chunk(1)}\n\ndata: {nope\n\n`],
  [
    'thread events and an error event',
    `event: thread.run\ndata: {"a":1}\n\nevent: error\ndata: {"error":{"message":"e"}}\n\n`,
  ],
  ['a BOM at the start of lines', `\uFEFFdata: ${chunk(1)}\n\n\uFEFFdata: ${chunk(2)}\n\n`],
  ['empty data and a bare data field', `data\n\ndata:\n\ndata: ${chunk(1)}\n\n`],
  ['blank lines only', '\n\n\r\n\r\r'],
  ['lone CRs between lines, then one that ends the bytes', `data: ${chunk(1)}\r\rdata: ${chunk(2)}\n\r\n\r`],
];

describe('chatStreamChunks reads what the openai package reads', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(STREAMS)('%s, whole and cut at every byte', async (_name, text) => {
    // The package logs unreadable JSON before it throws; the test does not need to see it.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const bytes = new TextEncoder().encode(text);
    const whole = await byPackage(bytes, []);
    expect(await byPieces(bytes, [])).toEqual(whole);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await byPieces(bytes, [cut]), `cut at ${cut}`).toEqual(await byPackage(bytes, [cut]));
    }
  });

  it('invalid UTF-8 and characters split between pieces decode as the package decodes them', async () => {
    const good = new TextEncoder().encode(`data: ${chunk(7)}\n\n`);
    const bad = Uint8Array.from([
      ...new TextEncoder().encode('data: {"id":"'),
      0xe2,
      0x82,
      0x22,
      0x7d,
      0x0a,
      0x0a,
    ]);
    const bytes = Uint8Array.from([...good, ...bad, ...good]);
    for (let cut = 0; cut < bytes.length; cut += 3)
      expect(await byPieces(bytes, [cut, cut + 1])).toEqual(await byPackage(bytes, [cut, cut + 1]));
  });

  it('generated streams in random pieces', async () => {
    let seed = 5;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    const ends = ['\n', '\r\n', '\r'];
    for (let round = 0; round < 200; round++) {
      let text = '';
      for (let e = next(6); e > 0; e--) {
        const end = ends[next(3)] as string;
        if (next(5) === 0) text += `: comment${end}`;
        if (next(6) === 0) text += `event: thread.x${end}`;
        text += `data: ${next(8) === 0 ? '[DONE]' : chunk(e)}${end}${end}`;
      }
      const bytes = new TextEncoder().encode(text);
      const cuts = Array.from({ length: next(5) }, () => next(bytes.length)).sort((a, b) => a - b);
      expect(await byPieces(bytes, cuts)).toEqual(await byPackage(bytes, cuts));
    }
  });

  it('generated byte streams with invalid UTF-8 and BOMs in comments and before lines, in random pieces', async () => {
    let seed = 11;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    const encode = (t: string) => [...new TextEncoder().encode(t)];
    const ends = [[0x0a], [0x0d, 0x0a], [0x0d]];
    const junk = [[0xff], [0xe2, 0x82], [0xef, 0xbb, 0xbf], [0xc3], [0xf0, 0x9f, 0x98]];
    for (let round = 0; round < 200; round++) {
      const bytes: number[] = [];
      for (let e = next(6); e > 0; e--) {
        const end = ends[next(3)] as number[];
        if (next(3) === 0) bytes.push(...encode(': '), ...(junk[next(junk.length)] as number[]), ...end);
        if (next(4) === 0) bytes.push(0xef, 0xbb, 0xbf);
        bytes.push(...encode(`data: ${chunk(e)}`), ...end, ...end);
      }
      const all = Uint8Array.from(bytes);
      const cuts = Array.from({ length: next(6) }, () => next(all.length)).sort((a, b) => a - b);
      expect(await byPieces(all, cuts)).toEqual(await byPackage(all, cuts));
    }
  });

  it('a piece completes many events at once: one batch for the piece, not one wait per event', async () => {
    const text = Array.from({ length: 500 }, (_, i) => `data: ${chunk(i)}\n\n`).join('');
    const batches: number[] = [];
    for await (const batch of chatStreamChunks(
      { body: piecesOf(new TextEncoder().encode(text), []), headers },
      () => {},
    ))
      batches.push(batch.length);
    expect(batches).toEqual([500]);
  });

  it('a missing body aborts and fails as the package does; an early stop aborts', async () => {
    const abort = vi.fn();
    await expect(chatStreamChunks({ body: null, headers }, abort).next()).rejects.toThrow(
      'Attempted to iterate over a response with no body',
    );
    expect(abort).toHaveBeenCalledTimes(1);
    const stop = vi.fn();
    const text = `data: ${chunk(1)}\n\ndata: ${chunk(2)}\n\n`;
    for await (const _ of chatStreamChunks(
      { body: piecesOf(new TextEncoder().encode(text), [5]), headers },
      stop,
    ))
      break;
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('an abort of the body ends the chunks quietly', async () => {
    async function* aborted(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode(`data: ${chunk(1)}\n\n`);
      throw Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });
    }
    const abort = vi.fn();
    const seen: unknown[] = [];
    for await (const batch of chatStreamChunks({ body: aborted(), headers }, abort)) seen.push(...batch);
    expect(seen).toHaveLength(1);
    expect(abort).not.toHaveBeenCalled();
  });
});
