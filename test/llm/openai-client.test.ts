import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelRequest, ToolSpec } from '../../src/llm/types';
import { type FakeWireStyle, toolNames } from '../helpers/fake-openai';
import { serveFakeOpenAI } from '../helpers/serve-fake-openai';
import { clientFor } from '../helpers/openai-client';

const tools: ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
  { name: 'write_file', description: 'Write a file', parameters: { type: 'object', properties: {} } },
];
const messages: ChatMessage[] = [
  { role: 'system', content: 'You are a test.' },
  { role: 'user', content: 'Hello' },
];

const serve = serveFakeOpenAI();

const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages,
  tools,
  signal: new AbortController().signal,
  ...extra,
});

describe('createOpenAIClient: streaming', () => {
  it('streams text through onText and returns the whole turn', async () => {
    const text = 'Hello there — this answer arrives in small pieces.';
    const server = await serve([{ text, chunkSize: 3 }]);
    const deltas: string[] = [];
    const turn = await clientFor(server.url).complete(request({ onText: (d) => deltas.push(d) }));
    expect(turn).toMatchObject({ text, toolCalls: [], finishReason: 'stop' });
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas.join('')).toBe(text);
    const body = server.requests[0]?.body;
    expect(body?.stream).toBe(true);
    expect(body?.model).toBe('fake-model');
    expect(body?.messages).toEqual(messages);
    expect(server.requests.map(toolNames)).toEqual([['read_file', 'write_file']]);
  });

  it('tells each tool call’s name once through onToolNamed (the assembler test: before its arguments end)', async () => {
    const server = await serve([
      {
        toolCalls: [
          { name: 'execute_command', args: { command: 'ls -la' } },
          { name: 'read_file', args: { path: 'a' } },
        ],
        chunkSize: 5,
      },
    ]);
    const seen: string[] = [];
    const turn = await clientFor(server.url).complete(request({ onToolNamed: (name) => seen.push(name) }));
    expect(seen).toEqual(['execute_command', 'read_file']);
    expect(turn.toolCalls.map((c) => c.function.name)).toEqual(seen);
  });

  it('assembles several tool calls whose arguments are split mid-string', async () => {
    const args = { path: 'src/a "quoted" file.ts', content: 'line 1\nline 2 — ünïcode' };
    const server = await serve([
      {
        text: 'Two calls.',
        toolCalls: [
          { name: 'write_file', args },
          { name: 'read_file', args: { path: 'b.ts' } },
        ],
        chunkSize: 4,
      },
    ]);
    const turn = await clientFor(server.url).complete(request());
    expect(turn.finishReason).toBe('tool_calls');
    expect(turn.toolCalls.map((c) => c.function.name)).toEqual(['write_file', 'read_file']);
    expect(JSON.parse(turn.toolCalls[0]?.function.arguments ?? '')).toEqual(args);
    expect(JSON.parse(turn.toolCalls[1]?.function.arguments ?? '')).toEqual({ path: 'b.ts' });
    expect(turn.toolCalls.every((c) => c.type === 'function' && c.id.length > 0)).toBe(true);
    expect(new Set(turn.toolCalls.map((c) => c.id)).size).toBe(2);
  });

  const quirks: [string, FakeWireStyle][] = [
    ['no index', { omitIndex: true }],
    ['every call at index 0', { indexAllZero: true }],
    ['no type', { omitType: true }],
    ['no call ids', { omitCallIds: true }],
    ['whole calls in one chunk', { wholeToolCalls: true }],
    ['whole calls, no index, no ids', { wholeToolCalls: true, omitIndex: true, omitCallIds: true }],
    ['bare chunks without id, model, fingerprint or logprobs', { bare: true }],
  ];
  it.each(quirks)('copes with servers that send %s', async (_name, style) => {
    const server = await serve([
      {
        toolCalls: [
          { name: 'read_file', args: { path: 'a.ts' } },
          { name: 'read_file', args: { path: 'b.ts' } },
        ],
        chunkSize: 3,
        style,
      },
    ]);
    const turn = await clientFor(server.url).complete(request());
    expect(turn.toolCalls.map((c) => JSON.parse(c.function.arguments))).toEqual([
      { path: 'a.ts' },
      { path: 'b.ts' },
    ]);
    expect(new Set(turn.toolCalls.map((c) => c.id)).size).toBe(2);
  });

  it('accepts a server that ignores stream: true and answers one JSON object', async () => {
    const server = await serve([
      {
        text: 'all at once',
        toolCalls: [{ name: 'read_file', args: { path: 'a' } }],
        usage: { prompt_tokens: 4, completion_tokens: 2 },
        style: { ignoreStream: true },
      },
    ]);
    const shown: string[] = [];
    const turn = await clientFor(server.url).complete(request({ onText: (d) => shown.push(d) }));
    expect(turn).toMatchObject({
      text: 'all at once',
      finishReason: 'tool_calls',
      usage: { promptTokens: 4, completionTokens: 2 },
    });
    expect(turn.toolCalls[0]?.function).toEqual({ name: 'read_file', arguments: '{"path":"a"}' });
    expect(shown).toEqual(['all at once']);
  });

  it('counts usage when the server reports it, and leaves it undefined when not', async () => {
    const server = await serve([
      { text: 'a', usage: { prompt_tokens: 12, completion_tokens: 5 } },
      { text: 'b', usage: false },
    ]);
    const client = clientFor(server.url);
    expect((await client.complete(request())).usage).toEqual({ promptTokens: 12, completionTokens: 5 });
    expect(server.requests[0]?.body.stream_options).toEqual({ include_usage: true });
    expect((await client.complete(request())).usage).toBeUndefined();
  });

  it('drops stream_options for good when a server refuses it', async () => {
    const server = await serve([{ text: 'one' }, { text: 'two' }], { rejectStreamOptions: true });
    const client = clientFor(server.url);
    const first = await client.complete(request());
    expect(first).toMatchObject({ text: 'one', usage: undefined });
    expect((await client.complete(request())).text).toBe('two');
    expect(server.requests.map((r) => r.body.stream_options !== undefined)).toEqual([true, false, false]);
  });

  it('tells onSent as each attempt’s request goes out, before its answer streams', async () => {
    const server = await serve([{ text: 'one' }], { rejectStreamOptions: true });
    const heard: string[] = [];
    await clientFor(server.url).complete(
      request({
        onSent: () => heard.push(`sent ${server.requests.length}`),
        onText: () => heard.push('text'),
      }),
    );
    // The refused first attempt and the retry without stream_options: one each, before the server saw it.
    expect(heard).toEqual(['sent 0', 'sent 1', 'text']);
  });

  it('sends assistant tool calls and tool results in the wire shape, with a placeholder key', async () => {
    const server = await serve([{ text: 'ok' }]);
    const call = {
      id: 'call_1',
      type: 'function' as const,
      function: { name: 'read_file', arguments: '{"path":"a"}' },
    };
    const history: ChatMessage[] = [
      ...messages,
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"status":"executed"}' },
      { role: 'assistant', content: null, tool_calls: [] },
    ];
    await clientFor(server.url).complete(request({ messages: history, tools: [] }));
    const sent = server.requests[0];
    expect(sent?.body.messages.slice(2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"status":"executed"}' },
      { role: 'assistant', content: '' },
    ]);
    expect(sent?.body.tools).toBeUndefined();
    expect(sent?.headers.authorization).toBe('Bearer not-needed');
  });
});
