import { afterEach, describe, expect, it, vi } from 'vitest';
import { estimateTokens } from '../../src/agent/loop';
import { createRequestBodyEncoder, toWire } from '../../src/llm/request-body';
import { AnswerTooLarge, PIECE_BYTES, tapEventStream } from '../../src/llm/sse-tap';
import { createStreamWatch, type IdleSeen } from '../../src/llm/stream-watch';
import type { ChatMessage, ToolSpec } from '../../src/llm/types';

afterEach(() => {
  vi.useRealTimers();
});

/** Feeds `pieces` through the tap and returns what came out, the bytes counted and whether [DONE] was seen. */
async function tap(pieces: string[]): Promise<{ out: string; counted: number; done: boolean }> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const p of pieces) controller.enqueue(new TextEncoder().encode(p));
      controller.close();
    },
  });
  let counted = 0;
  const t = tapEventStream(body, (n) => {
    counted += n;
  });
  let out = '';
  for await (const piece of t.stream) out += new TextDecoder().decode(piece, { stream: true });
  return { out, counted, done: t.sawDone() };
}

describe('tapEventStream', () => {
  const stream = 'data: {"choices":[]}\n\ndata: [DONE]\n\n';
  it.each(Array.from({ length: stream.length - 1 }, (_, i) => i + 1))(
    'finds [DONE] split at byte %i and passes every byte through',
    async (at) => {
      const result = await tap([stream.slice(0, at), stream.slice(at)]);
      expect(result).toEqual({ out: stream, counted: Buffer.byteLength(stream), done: true });
    },
  );

  it.each([
    ['no marker', ['data: {"choices":[]}\n\n'], false],
    ['at the very start', ['data:[DONE]\n\n'], true],
    ['after CRLF', ['data: {}\r\n\r\ndata:  [DONE]\r\n\r\n'], true],
    ['inside a JSON string', ['data: {"content":"data: [DONE]"}\n\n'], false],
    ['after a comment line', [': ping\ndata: [DONE]\n\n'], true],
    ['one byte at a time', Array.from('data: {}\n\ndata: [DONE]\n\n'), true],
  ])('%s → %s', async (_name, pieces, done) => {
    expect((await tap(pieces)).done).toBe(done);
  });
});

describe('tapEventStream stops an answer past its byte limit', () => {
  it('throws AnswerTooLarge once more than the limit has come, and reads no further', async () => {
    let pulled = 0;
    const body = (async function* () {
      for (;;) {
        pulled += 1;
        yield new Uint8Array(1000);
      }
    })();
    const read = async () => {
      for await (const _piece of tapEventStream(body, () => {}, 10_000).stream);
    };
    await expect(read()).rejects.toBeInstanceOf(AnswerTooLarge);
    expect(pulled).toBe(11);
  });
});

describe('tapEventStream hands on pieces of a few whole events', () => {
  // The openai package copies the rest of its buffer after each event it finds: a 64 KiB piece of
  // hundreds of small events (a burst of tool calls) would cost hundreds of 64 KiB copies.
  const event = (i: number) => `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":${i}}]}}]}\n\n`;
  const many = Array.from({ length: 2000 }, (_, i) => event(i)).join('');

  async function pieces(input: string[]): Promise<string[]> {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const p of input) controller.enqueue(new TextEncoder().encode(p));
        controller.close();
      },
    });
    const out: string[] = [];
    for await (const piece of tapEventStream(body, () => {}).stream)
      out.push(new TextDecoder().decode(piece));
    return out;
  }

  it('cuts a big piece after blank lines, every byte kept in order', async () => {
    const input = [many.slice(0, 65_536), many.slice(65_536)];
    const out = await pieces(input);
    expect(out.join('')).toBe(many);
    expect(out.length).toBeGreaterThan(input.length * 4);
    // Only the last piece cut from each input piece may end inside an event; each holds few events.
    expect(out.filter((piece) => !piece.endsWith('\n\n')).length).toBeLessThanOrEqual(input.length);
    for (const piece of out) expect(piece.length).toBeLessThan(PIECE_BYTES * 2 + 100);
  });

  it('keeps one big event whole, and small pieces as they came', async () => {
    const big = `data: {"content":"${'x'.repeat(100_000)}"}\n\n`;
    expect(await pieces([big])).toEqual([big]);
    expect(await pieces(['data: {}\n\n', 'data: [DONE]\n\n'])).toEqual(['data: {}\n\n', 'data: [DONE]\n\n']);
  });
});

describe('createStreamWatch', () => {
  type Step = ['bytes', number] | ['chunk', boolean] | ['wait', number];
  const cases: [string, Step[], IdleSeen | undefined][] = [
    ['silence from the start', [['wait', 1000]], 'nothing'],
    [
      'a byte every 400 ms keeps it alive',
      [
        ['bytes', 1],
        ['wait', 400],
        ['bytes', 1],
        ['wait', 400],
        ['bytes', 1],
        ['wait', 400],
        ['bytes', 1],
        ['wait', 400],
      ],
      undefined,
    ],
    [
      'empty chunks do not count',
      [
        ['bytes', 30],
        ['chunk', false],
        ['wait', 400],
        ['bytes', 30],
        ['chunk', false],
        ['wait', 400],
        ['bytes', 30],
        ['chunk', false],
        ['wait', 400],
      ],
      'empty',
    ],
    [
      'a chunk with progress resets it',
      [
        ['wait', 900],
        ['bytes', 30],
        ['chunk', true],
        ['wait', 900],
      ],
      undefined,
    ],
    [
      'silence after progress',
      [
        ['bytes', 30],
        ['chunk', true],
        ['wait', 1000],
      ],
      'answer',
    ],
  ];
  it.each(cases)('%s', (_name, steps, expected) => {
    vi.useFakeTimers();
    let clock = 0;
    const fired: IdleSeen[] = [];
    const watch = createStreamWatch({ idleMs: 1000, now: () => clock, onIdle: (seen) => fired.push(seen) });
    for (const step of steps) {
      if (step[0] === 'wait') {
        clock += step[1];
        vi.advanceTimersByTime(step[1]);
      } else if (step[0] === 'bytes') watch.bytes(step[1]);
      else watch.chunk(step[1]);
    }
    clock += 1;
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(expected ? [expected] : []);
    watch.dispose();
  });

  it('never fires after dispose', () => {
    vi.useFakeTimers();
    const fired: IdleSeen[] = [];
    const watch = createStreamWatch({ idleMs: 100, onIdle: (seen) => fired.push(seen) });
    watch.dispose();
    vi.advanceTimersByTime(1000);
    expect(fired).toEqual([]);
  });
});

describe('createRequestBodyEncoder', () => {
  const tools: ToolSpec[] = [
    {
      name: 'read_file',
      description: 'Read "quoted"',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ];
  const history: ChatMessage[] = [
    { role: 'system', content: 'You are warden.\n' },
    { role: 'user', content: 'héllo \u2028 "x"' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: '{"status":"executed"}' },
    { role: 'assistant', content: null, tool_calls: [] },
    { role: 'assistant', content: 'done' },
  ];
  it.each([
    [true, tools],
    [false, tools],
    [true, []],
  ])('equals JSON.stringify of the request (usage %s, %# tools)', (includeUsage, t) => {
    const body = Buffer.from(
      createRequestBodyEncoder().encode({ model: 'm', messages: history, tools: t, includeUsage }),
    ).toString('utf8');
    const expected = {
      model: 'm',
      messages: history.map(toWire),
      stream: true,
      ...(t.length > 0 && {
        tools: t.map((x) => ({
          type: 'function',
          function: { name: x.name, description: x.description, parameters: x.parameters },
        })),
      }),
      ...(includeUsage && { stream_options: { include_usage: true } }),
    };
    expect(JSON.parse(body)).toEqual(expected);
  });

  it('encodes each message once: a grown history re-uses the pieces it already has', () => {
    const encoder = createRequestBodyEncoder();
    const messages = [...history];
    encoder.encode({ model: 'm', messages, tools, includeUsage: false });
    const spy = vi.spyOn(JSON, 'stringify');
    messages.push({ role: 'user', content: 'next' });
    encoder.encode({ model: 'm', messages, tools, includeUsage: false });
    // The model name and the one new message; not the six old ones, not the tools.
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  it('a message measured for the turn’s estimate is not serialised again for its request', () => {
    const messages: ChatMessage[] = [
      ...history,
      { role: 'tool', tool_call_id: 'c1', content: 'é→x'.repeat(3000) },
    ];
    estimateTokens(messages, tools);
    const spy = vi.spyOn(JSON, 'stringify');
    const body = createRequestBodyEncoder().encode({ model: 'm', messages, tools, includeUsage: false });
    expect(spy).toHaveBeenCalledTimes(1); // the model name only: messages and tools were serialised before
    spy.mockRestore();
    expect(JSON.parse(Buffer.from(body).toString('utf8')).messages).toEqual(messages.map(toWire));
  });
});
