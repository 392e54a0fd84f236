import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { PlainResponse } from '../../src/llm/http/plain-response';
import { isAbortError, ModelError } from '../../src/llm/types';
import type { FakeStep } from '../helpers/fake-openai';
import { serveFakeOpenAI } from '../helpers/serve-fake-openai';
import { clientFor, failure, request } from '../helpers/openai-client';

const serve = serveFakeOpenAI();

const errorBody = (message: string, code: string | null = null) => ({
  error: { message, type: 'invalid_request_error', code },
});

describe('createOpenAIClient: retries', () => {
  it('retries a 500 and then succeeds', async () => {
    const server = await serve([{ status: 500 }, { text: 'recovered' }]);
    expect((await clientFor(server.url).complete(request())).text).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('honours a small Retry-After on 429', async () => {
    const server = await serve([
      { status: 429, headers: { 'retry-after': '1' } },
      { text: 'after the wait' },
    ]);
    const started = performance.now();
    expect((await clientFor(server.url).complete(request())).text).toBe('after the wait');
    // The backoff alone would be a few milliseconds; only the header explains a second.
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up at once when Retry-After is long, and says so', async () => {
    const server = await serve([{ status: 429, headers: { 'retry-after': '3600' } }]);
    const err = await failure(clientFor(server.url).complete(request()));
    expect(err).toMatchObject({ code: 'http', status: 429 });
    expect(err.message).toContain('asked to wait 3600 s');
    expect(server.requests).toHaveLength(1);
  });

  it('ends three 503s with a clear error naming the server', async () => {
    const server = await serve([
      { status: 503 },
      { status: 503 },
      { status: 503 },
      { text: 'never reached' },
    ]);
    const err = await failure(clientFor(server.url, { maxRetries: 2 }).complete(request()));
    expect(err).toMatchObject({ code: 'http', status: 503 });
    expect(err.message).toContain(`The model server at ${server.url} answered 503 three times`);
    expect(err.message).toMatch(/check/);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a stream that broke before any text, but never replays one that broke after', async () => {
    let sawText = () => {};
    const dropWhen = new Promise<void>((resolve) => {
      sawText = resolve;
    });
    const server = await serve([
      { text: 'lost', dropAfterChunks: 1 },
      { text: 'whole answer' },
      { text: 'half an answer', chunkSize: 2, dropAfterChunks: 2, dropWhen },
    ]);
    const client = clientFor(server.url);
    expect((await client.complete(request())).text).toBe('whole answer');
    const shown: string[] = [];
    const onText = (d: string) => {
      shown.push(d);
      sawText();
    };
    const err = await failure(client.complete(request({ onText })));
    expect(err.code).toBe('network');
    expect(err.message).toContain('mid-answer');
    expect(shown.join('')).toBe('ha');
    expect(server.requests).toHaveLength(3);
  });

  it('reports a server on a closed port as a network error after its retries', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/v1`;
    const err = await failure(clientFor(url, { maxRetries: 2 }).complete(request()));
    expect(err.code).toBe('network');
    expect(err.message).toContain(
      `Could not reach the model server at ${url} (ECONNREFUSED) after 3 attempts`,
    );
  });

  it('times out a server that never sends the first chunk, retrying once', async () => {
    const server = await serve([{ hangAfterChunks: 0 }, { hangAfterChunks: 0 }]);
    const err = await failure(
      clientFor(server.url, { maxRetries: 1, idleTimeoutMs: 150 }).complete(request()),
    );
    expect(err.code).toBe('idle_timeout');
    expect(err.message).toContain('sent nothing for 150 ms (streamIdleTimeoutSec) after 2 attempts');
    expect(server.requests).toHaveLength(2);
  });

  it('ends a stream that goes silent mid-answer without replaying it', async () => {
    const server = await serve([
      { text: 'abc', chunkSize: 1, hangAfterChunks: 3 },
      { text: 'never reached' },
    ]);
    const err = await failure(clientFor(server.url, { idleTimeoutMs: 150 }).complete(request()));
    expect(err.code).toBe('idle_timeout');
    expect(err.message).toContain(
      'stopped mid-answer (the idle timer fired: nothing arrived for 150 ms (streamIdleTimeoutSec))',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('retries an error event that arrives before any text', async () => {
    const errorEvent = JSON.stringify({ error: { message: 'overloaded, try again', type: 'server_error' } });
    const server = await serve([{ events: [errorEvent] }, { text: 'second time lucky' }]);
    expect((await clientFor(server.url).complete(request())).text).toBe('second time lucky');
    expect(server.requests).toHaveLength(2);
  });
});

describe('createOpenAIClient: abort', () => {
  it('rejects promptly with code aborted when the signal aborts mid-stream', async () => {
    const server = await serve([{ text: 'streaming, then silence', chunkSize: 4, hangAfterChunks: 3 }]);
    const controller = new AbortController();
    const shown: string[] = [];
    const pending = clientFor(server.url).complete(
      request({ signal: controller.signal, onText: (d) => shown.push(d) }),
    );
    const settled = failure(pending);
    await vi.waitFor(() => expect(shown.join('')).toBe('streamin'));
    const abortedAt = performance.now();
    controller.abort();
    const err = await settled;
    expect(err.code).toBe('aborted');
    expect(isAbortError(err)).toBe(true);
    expect(performance.now() - abortedAt).toBeLessThan(500);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects promptly when aborted during a backoff wait', async () => {
    const server = await serve([{ status: 503, headers: { 'retry-after': '15' } }]);
    const controller = new AbortController();
    const settled = failure(clientFor(server.url).complete(request({ signal: controller.signal })));
    await server.waitForRequests(1);
    controller.abort();
    expect((await settled).code).toBe('aborted');
  });

  it('rejects at once when the signal is already aborted', async () => {
    const server = await serve([{ text: 'unused' }]);
    const controller = new AbortController();
    controller.abort();
    expect((await failure(clientFor(server.url).complete(request({ signal: controller.signal })))).code).toBe(
      'aborted',
    );
  });
});

describe('createOpenAIClient: answers no retry can fix', () => {
  const cases: [string, FakeStep, ModelError['code']][] = [
    [
      'Ollama: model without tools',
      { status: 400, errorBody: errorBody('registry.ollama.ai/library/gemma:2b does not support tools') },
      'no_tool_support',
    ],
    [
      'llama.cpp without --jinja (a 500)',
      { status: 500, errorBody: errorBody('tools param requires --jinja flag') },
      'no_tool_support',
    ],
    [
      'tools not supported',
      { status: 400, errorBody: errorBody('Function calling is not supported by this model') },
      'no_tool_support',
    ],
    [
      'OpenAI context_length_exceeded',
      {
        status: 400,
        errorBody: errorBody(
          "This model's maximum context length is 8192 tokens.",
          'context_length_exceeded',
        ),
      },
      'context_length',
    ],
    [
      'vLLM error without an error key',
      {
        status: 400,
        errorBody: {
          object: 'error',
          message: "This model's maximum context length is 4096 tokens.",
          type: 'BadRequestError',
          code: 400,
        },
      },
      'context_length',
    ],
    [
      'llama.cpp context size',
      {
        status: 400,
        errorBody: errorBody('the request exceeds the available context size, try increasing it'),
      },
      'context_length',
    ],
    ['a wrong API key', { status: 401, errorBody: errorBody('Incorrect API key provided') }, 'http'],
  ];
  it.each(cases)('%s', async (_name, step, code) => {
    const server = await serve([step, { text: 'never reached' }]);
    const err = await failure(clientFor(server.url).complete(request()));
    expect(err.code).toBe(code);
    expect(err.message.length).toBeGreaterThan(40);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a context-length error sent as a stream event', async () => {
    const event = JSON.stringify({
      error: { message: 'prompt is too long: 210000 tokens > 200000 maximum' },
    });
    const server = await serve([{ events: [event] }]);
    expect((await failure(clientFor(server.url).complete(request()))).code).toBe('context_length');
    expect(server.requests).toHaveLength(1);
  });

  it('reports a chunk that is not JSON as a bad response', async () => {
    const server = await serve([
      { events: ['{"choices":[{"index":0,"delta":{"content":"ok"}}]}', '{not json', '[DONE]'] },
    ]);
    const err = await failure(clientFor(server.url).complete(request()));
    expect(err.code).toBe('bad_response');
    expect(err.message).toContain('could not read');
  });

  it('stops reading an answer that never ends (64 MiB without a break): a bad response, not retried', async () => {
    let sent = 0;
    const endless = async function* () {
      const piece = new TextEncoder().encode(
        `data: {"choices":[{"index":0,"delta":{"content":"${'x'.repeat(1 << 20)}`,
      );
      yield piece;
      const more = new Uint8Array(1 << 20).fill(0x78);
      for (;;) {
        sent += 1;
        yield more;
      }
    };
    const calls: string[] = [];
    const fetch = (async (input: string | URL) => {
      calls.push(String(input));
      return new PlainResponse(endless(), { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }) as unknown as typeof globalThis.fetch;
    const err = await failure(clientFor('http://127.0.0.1:9/v1', { fetch }).complete(request()));
    expect(err.code).toBe('bad_response');
    expect(err.message).toContain('64 MiB');
    expect(sent).toBeLessThan(70);
    expect(calls).toHaveLength(1);
  });

  it('names the model and what to do when tools are unsupported', async () => {
    const server = await serve([{ status: 400, errorBody: errorBody('model does not support tools') }]);
    const err = await failure(clientFor(server.url).complete(request()));
    expect(err.message).toContain('"fake-model"');
    expect(err.message).toContain('WARDEN_MODEL');
  });

  it('passes an error thrown by onText through unchanged', async () => {
    const server = await serve([{ text: 'boom' }, { text: 'never reached' }]);
    const bug = new Error('UI bug');
    const err = await clientFor(server.url)
      .complete(
        request({
          onText: () => {
            throw bug;
          },
        }),
      )
      .catch((e: unknown) => e);
    expect(err).toBe(bug);
    expect(server.requests).toHaveLength(1);
  });
});
