/**
 * Red team: a model endpoint that misbehaves on purpose. Every case ends with a ModelError that says
 * what happened (or a turn whose calls the gate will refuse), never a hang and never a call made up
 * from a broken answer. Servers are on 127.0.0.1 (test/helpers/fault-openai.ts); waits are the
 * client's own timers set short, never a sleep of the test's.
 */
import { gzipSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { chatStreamChunks } from '../../src/llm/sse-events';
import { createTurnAssembler } from '../../src/llm/turn-assembler';
import { parseToolArgs } from '../../src/tools/parse-args';
import { defineTool } from '../../src/tools/types';
import { z } from 'zod';
import { answer, chunk, type FaultStep, fault, toolCall } from '../helpers/fault-openai';
import { clientFor, failure, request, useFaultServer } from '../helpers/openai-client';

const { serve } = useFaultServer();

/** Writes `head`, then holds the response open until the client goes away. */
const stallAfter =
  (head: string): FaultStep =>
  async (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(head);
    return 'open';
  };

/** A status answer with the given headers and body. */
const statusWith =
  (status: number, headers: Record<string, string>, body = '{"error":{"message":"busy"}}'): FaultStep =>
  async (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.write(body);
    return 'end';
  };

describe('a stream that stalls or never ends is stopped with a reason', () => {
  it('stalls in the middle of an event (half a JSON object): idle timeout, after one retry', async () => {
    const half = 'data: {"choices":[{"index":0,"delta":{"content":"hel';
    const s = await serve(stallAfter(half), stallAfter(half));
    const err = await failure(clientFor(s.url, { idleTimeoutMs: 300 }).complete(request()));
    expect(err.code).toBe('idle_timeout');
    expect(err.message).toMatch(/streamIdleTimeoutSec/);
    expect(s.requests).toBe(2);
  });

  it('stalls after text was shown: idle timeout, never replayed (the text is not shown twice)', async () => {
    const s = await serve(stallAfter(chunk({ content: 'partial ' })), fault.send(answer('again')));
    const shown: string[] = [];
    const err = await failure(
      clientFor(s.url, { idleTimeoutMs: 300 }).complete(request({ onText: (t) => shown.push(t) })),
    );
    expect(err.code).toBe('idle_timeout');
    expect(shown).toEqual(['partial ']);
    expect(s.requests).toBe(1);
  });

  it('keep-alive comments forever: the turn deadline ends it', async () => {
    const s = await serve(fault.keepAlive(Number.POSITIVE_INFINITY, 10, ''));
    const err = await failure(
      clientFor(s.url, { idleTimeoutMs: 60_000, turnTimeoutMs: 400 }).complete(request()),
    );
    expect(err.code).toBe('turn_timeout');
    expect(err.message).toMatch(/turnTimeoutSec/);
  });

  it('never sends headers at all: idle timeout, one retry, then a message', async () => {
    const s = await serve(fault.hang(), fault.hang());
    const err = await failure(clientFor(s.url, { idleTimeoutMs: 300 }).complete(request()));
    expect(err.code).toBe('idle_timeout');
    expect(s.requests).toBe(2);
  });
});

describe('broken chunks are a bad response, never a guessed answer', () => {
  it('invalid JSON after text was shown: bad_response, not retried', async () => {
    const s = await serve(
      fault.send(`${chunk({ content: 'so far' })}data: {"choices":[{"index":0,"delta":{"content":"x"}\n\n`),
    );
    const err = await failure(clientFor(s.url).complete(request({ onText: () => {} })));
    expect(err.code).toBe('bad_response');
    expect(s.requests).toBe(1);
  });

  it('an error object after a tool call began: the call is never returned', async () => {
    const s = await serve(
      fault.send(
        `${toolCall('c1', 'write_file', '{"path":"a.txt",')}data: {"error":{"message":"overloaded","type":"server_error"}}\n\n`,
      ),
      fault.send(`data: {"error":{"message":"overloaded","type":"server_error"}}\n\n`),
      fault.send(`data: {"error":{"message":"overloaded","type":"server_error"}}\n\n`),
      fault.send(`data: {"error":{"message":"overloaded","type":"server_error"}}\n\n`),
    );
    const err = await failure(clientFor(s.url).complete(request()));
    expect(err.message).toMatch(/overloaded/);
  });

  it('a 200 answer that is an HTML page (a captive portal): bad_response naming no chunks', async () => {
    const s = await serve(async (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body>Please log in to the Wi-Fi</body></html>\n');
      return 'end';
    });
    const err = await failure(clientFor(s.url).complete(request()));
    expect(err.code).toBe('bad_response');
    expect(err.message).toMatch(/no chunks/);
  });

  it('a small gzip body that inflates past 64 MiB: reading stops, bad_response', async () => {
    const bomb = gzipSync(Buffer.alloc(80 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(200 * 1024);
    const s = await serve(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.write(bomb);
      return 'end';
    });
    const err = await failure(clientFor(s.url).complete(request()));
    expect(err.code).toBe('bad_response');
    expect(err.message).toMatch(/64 MiB/);
    expect(s.requests).toBe(1);
  });

  it('a body that ends mid-tool-call without finish_reason or [DONE]: truncated, the call never comes back', async () => {
    const cut = toolCall('c1', 'execute_command', '{"command":"rm -rf build');
    const s = await serve(fault.send(cut), fault.send(cut));
    const err = await failure(clientFor(s.url).complete(request()));
    expect(err.code).toBe('truncated');
  });
});

describe('Retry-After from a hostile server is bounded', () => {
  it.each([
    ['0', 4],
    ['-5', 4],
    ['NaN', 4],
    ['Infinity', 4],
    ['1e400', 4],
    ['Thu, 01 Jan 1970 00:00:00 GMT', 4],
  ])(
    '429 with Retry-After %s: retried at most maxRetries times, then an http error',
    async (value, count) => {
      const s = await serve(...Array.from({ length: 6 }, () => statusWith(429, { 'retry-after': value })));
      const err = await failure(clientFor(s.url).complete(request()));
      expect(err.code).toBe('http');
      expect(err.status).toBe(429);
      expect(s.requests).toBe(count);
    },
  );

  it.each([
    ['a huge number of seconds', { 'retry-after': '99999999' }],
    ['a date far ahead', { 'retry-after': 'Fri, 01 Jan 2100 00:00:00 GMT' }],
    ['a huge retry-after-ms', { 'retry-after-ms': '1e12' }],
  ])('503 with %s: no retry at all, the message says the server asked to wait', async (_n, headers) => {
    const s = await serve(statusWith(503, headers), statusWith(503, headers));
    const err = await failure(clientFor(s.url).complete(request()));
    expect(err.code).toBe('http');
    expect(s.requests).toBe(1);
  });

  it('500 with a multi-megabyte error body: one failure, its message stays short', async () => {
    const body = JSON.stringify({ error: { message: 'z'.repeat(3 * 1024 * 1024) } });
    const s = await serve(...Array.from({ length: 4 }, () => statusWith(500, {}, body)));
    const err = await failure(clientFor(s.url).complete(request()));
    expect(err.code).toBe('http');
    expect(err.message.length).toBeLessThan(4_000);
  });
});

describe('tool calls a model cannot be trusted with', () => {
  const c = (calls: unknown[], finish: string | null = null) => ({
    choices: [{ index: 0, delta: { tool_calls: calls }, finish_reason: finish }],
  });

  it('an id re-used by a later call cannot rename or re-target the first call; ids stay unique', () => {
    let n = 0;
    const a = createTurnAssembler(() => `gen_${n++}`);
    a.push(c([{ index: 0, id: 'X', function: { name: 'read_file', arguments: '{"path":"a"}' } }]));
    a.push(c([{ index: 1, function: { name: 'write_file', arguments: '{"path":"b","content":"c"}' } }]));
    a.push(c([{ index: 1, id: 'X' }]));
    a.push(c([{ index: 2, id: 'X', function: { name: 'execute_command', arguments: '{}' } }]));
    const calls = a.finish().toolCalls;
    const ids = calls.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(calls[0]?.function.name).toBe('read_file');
    // The pieces sent under the same id break the first call's JSON: the gate refuses it, nothing guesses.
    expect(() => JSON.parse(calls[0]?.function.arguments as string)).toThrow();
    expect(calls.map((t) => t.function.name)).not.toContain('execute_command');
  });

  it('5,000 calls in one answer: each kept apart with its own id and arguments', () => {
    const a = createTurnAssembler(() => 'gen');
    for (let i = 0; i < 5_000; i++)
      a.push(c([{ index: i, id: `id${i}`, function: { name: 'read_file', arguments: `{"path":"f${i}"}` } }]));
    const calls = a.finish().toolCalls;
    expect(calls).toHaveLength(5_000);
    expect(new Set(calls.map((t) => t.id)).size).toBe(5_000);
    expect(calls[4_999]?.function.arguments).toBe('{"path":"f4999"}');
  });

  it('arguments that are not JSON, or JSON of the wrong shape, are an error naming the tool — never {}', () => {
    const tool = defineTool({
      name: 'write_file',
      description: 'w',
      schema: z.object({ path: z.string(), content: z.string() }),
      kind: 'write',
      execute: async () => ({ ok: true, output: '' }),
    });
    for (const raw of ['{"path":"a"', 'null', '[]', '"{}"', '{"path":1,"content":"x"}', '', 'NaN']) {
      const parsed = parseToolArgs(tool, raw);
      expect(parsed.ok, raw).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatch(/^write_file: /);
    }
  });

  it('a name-less call with arguments is kept (the gate refuses an unknown tool), not dropped or merged', () => {
    const a = createTurnAssembler(() => 'gen');
    a.push(c([{ index: 0, id: 'a', function: { arguments: '{"path":"x"}' } }]));
    const calls = a.finish().toolCalls;
    expect(calls).toEqual([{ id: 'a', type: 'function', function: { name: '', arguments: '{"path":"x"}' } }]);
  });
});

describe('a gigantic line costs memory and time in proportion to its size', () => {
  it('a 24 MiB line arriving in 16 KiB pieces is copied a bounded number of times, not once per piece', async () => {
    // Each piece of a line without an end used to be joined onto all before it: ~n²/2 bytes copied
    // (a 64 MiB line in 16 KiB pieces: ~128 GiB, minutes of a pegged CPU) before the byte limit stopped it.
    const size = 24 * 1024 * 1024;
    const piece = new Uint8Array(16 * 1024).fill(0x78);
    const head = new TextEncoder().encode('data: {"choices":[{"index":0,"delta":{"content":"');
    const tail = new TextEncoder().encode('"}}]}\n\ndata: [DONE]\n\n');
    const body = (async function* () {
      yield head;
      for (let sent = 0; sent < size; sent += piece.length) yield piece;
      yield tail;
    })();
    let copied = 0;
    const set = Uint8Array.prototype.set;
    Uint8Array.prototype.set = function (this: Uint8Array, array: ArrayLike<number>, offset?: number) {
      copied += array.length;
      return set.call(this, array, offset);
    } as typeof set;
    const chunks: unknown[] = [];
    try {
      for await (const batch of chatStreamChunks({ body, headers: new Headers() }, () => {}))
        chunks.push(...batch);
    } finally {
      Uint8Array.prototype.set = set;
    }
    expect(chunks).toHaveLength(1);
    expect(copied).toBeLessThan(4 * size);
  });
});
