import { describe, expect, it } from 'vitest';
import { lastToolMessage } from '../helpers/fake-openai';
import { serveFakeOpenAI } from '../helpers/serve-fake-openai';

const serve = serveFakeOpenAI();

const post = (url: string, body: unknown) =>
  fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const dataLines = (sse: string) =>
  sse
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));

describe('startFakeOpenAI', () => {
  it('streams real chat.completion.chunk events, splitting arguments mid-string, ending with [DONE]', async () => {
    const server = await serve([
      {
        text: 'Hi there',
        toolCalls: [{ name: 'read_file', args: { path: 'some/long/path.ts' } }],
        chunkSize: 5,
      },
    ]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await post(server.url, {
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const lines = dataLines(await res.text());
    expect(lines.at(-1)).toBe('[DONE]');
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l));
    expect(chunks[0]).toMatchObject({
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { role: 'assistant' } }],
    });
    const argPieces = chunks.flatMap((c) =>
      c.choices.flatMap(
        (ch: { delta: { tool_calls?: { function: { arguments: string } }[] } }) => ch.delta.tool_calls ?? [],
      ),
    );
    expect(argPieces[0]).toMatchObject({
      index: 0,
      id: 'call_fake_0_0',
      type: 'function',
      function: { name: 'read_file', arguments: '' },
    });
    const joined = argPieces.map((p: { function: { arguments: string } }) => p.function.arguments).join('');
    expect(JSON.parse(joined)).toEqual({ path: 'some/long/path.ts' });
    expect(argPieces.length).toBeGreaterThan(3);
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
  });

  it('answers stream: false with one chat.completion object', async () => {
    const server = await serve([
      {
        text: 'plain',
        toolCalls: [{ name: 'list_dir', args: {} }],
        usage: { prompt_tokens: 3, completion_tokens: 1 },
      },
    ]);
    const json = await (await post(server.url, { model: 'm', messages: [] })).json();
    expect(json).toMatchObject({
      object: 'chat.completion',
      choices: [
        {
          message: {
            role: 'assistant',
            content: 'plain',
            tool_calls: [{ function: { name: 'list_dir', arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 1 },
    });
  });

  it('records requests, lets a step answer from what it received, and fails loudly when the script is used up', async () => {
    const server = await serve([
      (req) => ({ text: `tool said ${lastToolMessage(req)?.content}` }),
      { status: 503, headers: { 'retry-after': '2' } },
    ]);
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'tool', tool_call_id: 'c1', content: 'forty-two' },
    ];
    const first = await (await post(server.url, { model: 'm', messages })).json();
    expect(first.choices[0].message.content).toBe('tool said forty-two');
    const second = await post(server.url, { model: 'm', messages });
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('2');
    const third = await post(server.url, { model: 'm', messages });
    expect(third.status).toBe(500);
    expect(await third.text()).toContain('no reply left for request #2');
    await server.waitForRequests(3);
    expect(server.requests.map((r) => r.index)).toEqual([0, 1, 2]);
    expect(server.requests[0]?.body.messages).toEqual(messages);
  });

  it('uses whenExhausted and push() to extend the script', async () => {
    const server = await serve([], { whenExhausted: { text: 'fallback' } });
    server.push({ text: 'pushed' });
    const a = await (await post(server.url, { messages: [] })).json();
    const b = await (await post(server.url, { messages: [] })).json();
    expect([a.choices[0].message.content, b.choices[0].message.content]).toEqual(['pushed', 'fallback']);
  });

  it('cuts a hanging stream on close()', async () => {
    const server = await serve([{ text: 'never finished', hangAfterChunks: 2 }]);
    const res = await post(server.url, { messages: [], stream: true });
    const reader = res.body?.getReader();
    expect((await reader?.read())?.done).toBe(false);
    const rest = (async () => {
      for (;;) if ((await reader?.read())?.done) return 'ended';
    })().catch(() => 'cut');
    await server.close();
    expect(['ended', 'cut']).toContain(await rest);
  });

  it('rejects waitForRequests after its timeout', async () => {
    const server = await serve([]);
    await expect(server.waitForRequests(1, 20)).rejects.toThrow('0 of 1 requests');
  });
});
