/**
 * A context you can see and manage (issue 15 §4), against the fake OpenAI server: the context figure
 * (server usage, else the tokenizer), the 80 % warning, /compact (shown, then accepted or declined),
 * the offer before the window overflows, and /model.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMPACT_INSTRUCTION, SUMMARY_PREFIX, compactMessages } from '../../src/llm/compact-prompt';
import { createDemoModel } from '../../src/llm/demo-model';
import { createOpenAIClient } from '../../src/llm/openai-client';
import { createSession } from '../../src/session/session';
import type { CoreEvent } from '../../src/protocol';
import type { FakeOpenAIOptions, FakeStep } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const WINDOW = 100_000;
// The tokenizer's first load takes about a second on a busy machine.
const WAIT = { timeout: 10_000 };
const start = async (script: FakeStep[], window = WINDOW, fake?: FakeOpenAIOptions) => {
  h = await startSession(script, {
    session: { contextWindowTokens: window, offerCompact: true },
    files: { 'a.txt': 'hello\n' },
    ...(fake ? { fake } : {}),
  });
  return h;
};
const usage = (prompt: number, completion = 0) => ({ prompt_tokens: prompt, completion_tokens: completion });
const notices = (events: CoreEvent[], part: string) =>
  events.filter((e) => e.type === 'notice' && e.text.includes(part));
const proposed = (events: CoreEvent[]) =>
  events.filter((e): e is Extract<CoreEvent, { type: 'compact_proposed' }> => e.type === 'compact_proposed');

describe('the context figure', () => {
  it.each([
    { name: 'usage 42,000 of 100,000', prompt: 41_990, completion: 10, share: 42 },
    { name: 'usage 12,345 of 100,000', prompt: 12_000, completion: 345, share: 12 },
  ])('comes from the server when it reports usage ($name)', async ({ prompt, completion, share }) => {
    const { session } = await start([{ text: 'hi', usage: usage(prompt, completion) }]);
    await session.run('hello');
    const context = session.client.snapshot().context;
    expect(context).toEqual({ used: prompt + completion, window: WINDOW, source: 'server' });
    expect(Math.round(((context?.used ?? 0) / WINDOW) * 100)).toBe(share);
  });

  it('is counted with the tokenizer when the server reports none', async () => {
    const { session } = await start([{ text: 'a short answer', usage: false }]);
    await session.run('count me please');
    await vi.waitFor(() => expect(session.client.snapshot().context?.source).toBe('tokenizer'), WAIT);
    const used = session.client.snapshot().context?.used ?? 0;
    // System prompt and tools make thousands of tokens; far below the 4-characters estimate of the body.
    expect(used).toBeGreaterThan(500);
    expect(used).toBeLessThan(WINDOW / 2);
  });

  it('warns once when it passes 80 %', async () => {
    const { session, events } = await start([
      { text: 'one', usage: usage(70_000) },
      { text: 'two', usage: usage(85_000) },
      { text: 'three', usage: usage(86_000) },
    ]);
    await session.run('first');
    expect(notices(events, "of the model's context")).toHaveLength(0);
    await session.run('second');
    await session.run('third');
    const warned = notices(events, "of the model's context");
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: 'warn' });
    expect((warned[0] as { text: string }).text).toContain('85 %');
  });
});

describe('/compact', () => {
  const summaryReply: FakeStep = (req) => ({
    text: `SUMMARY of ${req.body.messages.length - 1} messages`,
    usage: usage(3_000),
  });

  async function proposal(h: SessionHarness) {
    h.session.client.send({ type: 'compact' });
    await vi.waitFor(() => expect(proposed(h.events)).toHaveLength(1), WAIT);
    return proposed(h.events)[0] as Extract<CoreEvent, { type: 'compact_proposed' }>;
  }

  it("shows the server's summary first; accepting replaces the history (system + summary + the new prompt)", async () => {
    const harness = await start([
      { text: 'first answer', usage: usage(5_000) },
      summaryReply,
      { text: 'after' },
    ]);
    await harness.session.run('first prompt');
    const p = await proposal(harness);
    // Asked with the same model, no tools, the whole history and the instruction last.
    const asked = harness.fake.requests[1]?.body;
    expect(asked?.model).toBe('fake-model');
    expect(asked?.tools).toBeUndefined();
    expect(asked?.messages.at(-1)).toEqual({ role: 'user', content: COMPACT_INSTRUCTION });
    expect(p).toMatchObject({ summary: 'SUMMARY of 3 messages', offered: false });
    expect(p.after).toBeLessThan(p.before);
    expect(harness.session.client.snapshot().compact?.summary).toBe('SUMMARY of 3 messages');
    const lines = harness.session.client.snapshot().transcript.length;

    harness.session.client.send({ type: 'accept_compact', id: p.id, accept: true });
    expect(notices(harness.events, 'conversation compacted (')).toHaveLength(1);
    expect(harness.session.client.snapshot().compact).toBeUndefined();
    expect(harness.events).toContainEqual(
      expect.objectContaining({ type: 'compact_resolved', outcome: 'accepted' }),
    );
    // The transcript keeps its lines and gets the marker.
    expect(harness.session.client.snapshot().transcript.length).toBe(lines + 1);

    await harness.session.run('next prompt');
    const sent = harness.fake.requests[2]?.body.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(sent[1]?.content).toBe(`${SUMMARY_PREFIX}SUMMARY of 3 messages`);
    expect(sent[2]?.content).toBe('next prompt');
  });

  it('a resumed session goes on from the summary (the journal records the replaced history)', async () => {
    const harness = await start([
      { text: 'first answer', usage: usage(5_000) },
      summaryReply,
      { text: 'resumed' },
    ]);
    await harness.session.run('first prompt');
    const p = await proposal(harness);
    harness.session.client.send({ type: 'accept_compact', id: p.id, accept: true });
    const id = harness.session.client.snapshot().sessionId;
    await harness.session.close();
    const again = await createSession({
      root: harness.root,
      home: harness.home,
      model: createOpenAIClient({ baseUrl: harness.fake.url, apiKey: 'test', model: 'fake-model' }),
      mode: 'manual',
      approvalTimeoutSec: 60,
      sandbox: 'auto',
      maxStepsPerTurn: 20,
      contextWindowTokens: WINDOW,
      resume: id,
    });
    try {
      await again.run('after resume');
      const sent = harness.fake.requests[2]?.body.messages ?? [];
      expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'user']);
      expect(sent[1]?.content).toBe(`${SUMMARY_PREFIX}SUMMARY of 3 messages`);
      expect(sent[2]?.content).toBe('after resume');
    } finally {
      await again.close();
    }
  });

  it('declining keeps the history as it was', async () => {
    const harness = await start([{ text: 'first answer' }, summaryReply, { text: 'after' }]);
    await harness.session.run('first prompt');
    const p = await proposal(harness);
    harness.session.client.send({ type: 'accept_compact', id: p.id, accept: false });
    expect(harness.events).toContainEqual(
      expect.objectContaining({ type: 'compact_resolved', outcome: 'declined' }),
    );
    await harness.session.run('next prompt');
    const sent = harness.fake.requests[2]?.body.messages ?? [];
    expect(sent.map((m) => m.content)).toEqual([
      sent[0]?.content,
      'first prompt',
      'first answer',
      'next prompt',
    ]);
  });

  it.each([{ name: 'before any prompt', prompts: 0, text: 'nothing to compact' }])(
    'says why it cannot ($name)',
    async ({ text }) => {
      const harness = await start([]);
      harness.session.client.send({ type: 'compact' });
      await vi.waitFor(() => expect(notices(harness.events, text)).toHaveLength(1), WAIT);
      expect(harness.fake.requests).toHaveLength(0);
    },
  );

  it('the demo model answers with a scripted summary that says it is the demo', async () => {
    const model = createDemoModel({ tickMs: 0 });
    const turn = await model.complete({
      messages: compactMessages([
        { role: 'system', content: 's' },
        { role: 'user', content: 'fix the bug' },
        { role: 'assistant', content: 'done' },
      ]),
      tools: [],
      signal: new AbortController().signal,
    });
    expect(turn.text).toMatch(/^\[demo\].*fix the bug/);
    expect(turn.toolCalls).toEqual([]);
  });
});

describe('the offer before the window overflows', () => {
  const WINDOW_SMALL = 20_000;
  const script = (answer: boolean): FakeStep[] => [
    // The first answer reads a file; the server says the request already fills 95 % of the window.
    { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }], usage: usage(19_000) },
    { text: 'SHORT SUMMARY', usage: usage(1_000) },
    { text: answer ? 'went on from the summary' : 'went on in full' },
  ];

  it.each([true, false])('pauses the turn and offers /compact (accept: %s)', async (accept) => {
    const harness = await start(script(accept), WINDOW_SMALL);
    const run = harness.session.run('read a.txt');
    await vi.waitFor(() => expect(proposed(harness.events)).toHaveLength(1), WAIT);
    const p = proposed(harness.events)[0] as Extract<CoreEvent, { type: 'compact_proposed' }>;
    expect(p).toMatchObject({ summary: 'SHORT SUMMARY', offered: true });
    expect(harness.fake.requests[1]?.body.messages.at(-1)?.content).toBe(COMPACT_INSTRUCTION);
    // The turn waits for the person: no third request yet.
    expect(harness.fake.requests).toHaveLength(2);
    harness.session.client.send({ type: 'accept_compact', id: p.id, accept });
    const result = await run;
    expect(result.status).toBe('done');
    const sent = harness.fake.requests[2]?.body.messages ?? [];
    if (accept) {
      expect(sent.map((m) => m.role)).toEqual(['system', 'user']);
      expect(sent[1]?.content).toBe(`${SUMMARY_PREFIX}SHORT SUMMARY`);
    } else {
      expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    }
  });

  it('declined past the hard bound, the turn ends as before (context_window)', async () => {
    // Five reads add ~12,000 characters: far past the window, whatever the system prompt weighs.
    const reads = [1, 2, 3, 4, 5].map((n) => ({ name: 'read_file', args: { path: `big${n}.txt` } }));
    const harness = await start([{ toolCalls: reads, usage: usage(1_000) }, { text: 'SUMMARY' }], 3_500);
    const { writeFileSync } = await import('node:fs');
    for (let n = 1; n <= 5; n++) writeFileSync(`${harness.root}/big${n}.txt`, `${n} word `.repeat(9_000));
    const run = harness.session.run('read the big files');
    await vi.waitFor(() => expect(proposed(harness.events)).toHaveLength(1), WAIT);
    const p = proposed(harness.events)[0] as Extract<CoreEvent, { type: 'compact_proposed' }>;
    harness.session.client.send({ type: 'accept_compact', id: p.id, accept: false });
    const result = await run;
    expect(result).toMatchObject({ status: 'failed', stop: 'context_window' });
    expect(harness.fake.requests).toHaveLength(2);
  });
});

describe('/model', () => {
  it('NAME switches the model of the next request and the status', async () => {
    const harness = await start([{ text: 'one' }, { text: 'two' }]);
    await harness.session.run('first');
    harness.session.client.send({ type: 'set_model', name: 'other-model' });
    expect(harness.session.client.snapshot().model).toEqual({ name: 'other-model', demo: false });
    expect(notices(harness.events, 'Model: other-model')).toHaveLength(1);
    await harness.session.run('second');
    expect(harness.fake.requests.map((r) => r.body.model)).toEqual(['fake-model', 'other-model']);
  });

  it.each([
    { name: 'a name with a space', model: 'a b' },
    { name: 'an empty name', model: '  ' },
  ])('refuses $name', async ({ model }) => {
    const harness = await start([]);
    harness.session.client.send({ type: 'set_model', name: model });
    expect(harness.session.client.snapshot().model.name).toBe('fake-model');
    expect(notices(harness.events, 'one word')).toHaveLength(1);
  });

  it.each([
    {
      name: 'lists the server models, the current one marked',
      fake: { models: ['b-model', 'fake-model'] },
      says: 'Models on the server: b-model, fake-model (current)',
    },
    {
      name: 'says so when the server has no /models',
      fake: { models: false as const },
      says: 'the server has no /models route',
    },
  ])('alone $name', async ({ fake, says }) => {
    const harness = await start([], WINDOW, fake);
    harness.session.client.send({ type: 'list_models' });
    await vi.waitFor(() => expect(notices(harness.events, says)).toHaveLength(1), WAIT);
  });
});
