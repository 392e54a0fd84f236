import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient } from '../../src/llm/openai-client';
import type { CoreEvent } from '../../src/protocol';
import { answer, type FaultServer, fault, startFaultServer } from '../helpers/fault-openai';
import { lastToolMessage, type RecordedRequest } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
let faults: FaultServer | undefined;
afterEach(async () => {
  await h?.dispose();
  await faults?.close();
  h = undefined;
  faults = undefined;
});

const bodySize = (req: RecordedRequest | undefined) => JSON.stringify(req?.body ?? {}).length;
const assistantArgs = (req: RecordedRequest | undefined) => {
  const m = req?.body.messages.find((x) => x.role === 'assistant' && x.tool_calls?.length);
  return JSON.parse(m?.role === 'assistant' ? (m.tool_calls?.[0]?.function.arguments ?? '{}') : '{}');
};
const turnDone = (events: CoreEvent[]) =>
  events.filter((e): e is Extract<CoreEvent, { type: 'turn_done' }> => e.type === 'turn_done').at(-1);

describe('the history stays bounded', () => {
  it('a 10 MB argument: the call is refused, the turn goes on, and what is sent next is small', async () => {
    const content = 'y'.repeat(10 * 1024 * 1024);
    h = await startSession([
      { toolCalls: [{ name: 'write_file', args: { path: 'big.txt', content } }], chunkSize: 1024 * 1024 },
      { text: 'I will write it in parts.' },
    ]);
    const result = await h.session.run('write a huge file');
    expect(result).toEqual({ status: 'done', text: 'I will write it in parts.' });
    expect(existsSync(join(h.root, 'big.txt'))).toBe(false);
    const next = h.fake.requests[1];
    expect(bodySize(next)).toBeLessThan(64 * 1024);
    expect(assistantArgs(next)).toEqual({
      path: 'big.txt',
      content: expect.stringMatching(
        /^\[10 MB of content, not kept in the conversation; the call was not run \(blocked\), so big\.txt was not written; sha256 [0-9a-f]{16}\]$/,
      ),
    });
    expect(JSON.parse(lastToolMessage(next as RecordedRequest)?.content ?? '{}')).toMatchObject({
      status: 'blocked',
    });
  });

  it('a 600 KB write (more than the context holds) is written whole; the history keeps a pointer and the session goes on', async () => {
    const content = `${'0123456789abcdef'.repeat(600 * 64)}\n`;
    h = await startSession([
      { toolCalls: [{ name: 'write_file', args: { path: 'big.txt', content } }], chunkSize: 64 * 1024 },
      { text: 'Written.' },
      { text: 'Still here.' },
    ]);
    const run = h.session.run('write a big file');
    const request = await h.nextRequest();
    h.decide(request.id, { kind: 'approve' });
    expect(await run).toEqual({ status: 'done', text: 'Written.' });
    expect(statSync(join(h.root, 'big.txt')).size).toBe(Buffer.byteLength(content));
    expect(readFileSync(join(h.root, 'big.txt'), 'utf8')).toBe(content);
    expect(assistantArgs(h.fake.requests[1]).content).toMatch(
      /^\[600 KB of content, not kept in the conversation; written to big\.txt; read the file to see it; sha256 /,
    );
    // The next prompt is not refused for the size of the conversation: nothing needs /clear.
    expect(await h.session.run('and now?')).toEqual({ status: 'done', text: 'Still here.' });
    expect(bodySize(h.fake.requests[2])).toBeLessThan(64 * 1024);
  });
});

describe('a turn that ends early says why', () => {
  it('the idle timer: the message names streamIdleTimeoutSec and turn_done carries idle_timeout', async () => {
    faults = await startFaultServer([fault.hang(), fault.hang()]);
    h = await startSession([], {
      session: { model: createOpenAIClient({ baseUrl: faults.url, model: 'm', idleTimeoutMs: 400 }) },
    });
    const result = await h.session.run('hello');
    expect(result).toMatchObject({
      status: 'failed',
      stop: 'idle_timeout',
      text: expect.stringContaining('(streamIdleTimeoutSec)'),
    });
    expect(turnDone(h.events)?.stop).toBe('idle_timeout');
    expect(h.events).toContainEqual({
      type: 'notice',
      level: 'warn',
      text: expect.stringMatching(/sent nothing for 400 ms .*trying again/),
    });
    expect(h.events).toContainEqual({ type: 'error', message: result.text });
  });

  it('the deadline: turn_timeout, and the message names turnTimeoutSec', async () => {
    faults = await startFaultServer([fault.keepAlive(Number.POSITIVE_INFINITY, 50, '')]);
    h = await startSession([], {
      session: { model: createOpenAIClient({ baseUrl: faults.url, model: 'm', turnTimeoutMs: 600 }) },
    });
    const result = await h.session.run('hello');
    expect(result).toMatchObject({
      status: 'failed',
      stop: 'turn_timeout',
      text: expect.stringContaining('(turnTimeoutSec)'),
    });
    expect(turnDone(h.events)?.stop).toBe('turn_timeout');
  });

  it('a retried idle attempt that then answers: the person saw a notice, the turn is done', async () => {
    faults = await startFaultServer([fault.hang(), fault.send(answer('late but fine'))]);
    h = await startSession([], {
      session: { model: createOpenAIClient({ baseUrl: faults.url, model: 'm', idleTimeoutMs: 400 }) },
    });
    expect(await h.session.run('hello')).toEqual({ status: 'done', text: 'late but fine' });
    expect(
      h.events.some((e) => e.type === 'notice' && e.text.includes('trying again (attempt 2 of 4)')),
    ).toBe(true);
  });

  it('a stream cut before finish_reason and [DONE]: its write never runs, nothing is asked, the turn says so', async () => {
    const role = JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] });
    const call = JSON.stringify({
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: 0,
                id: 'c1',
                type: 'function',
                function: { name: 'write_file', arguments: '{"path":"cut.txt","content":"x"}' },
              },
            ],
          },
        },
      ],
    });
    h = await startSession([{ events: [role, call] }, { events: [role, call] }]);
    const result = await h.session.run('write');
    expect(result).toMatchObject({
      status: 'failed',
      stop: 'truncated',
      text: expect.stringContaining('no finish_reason and no [DONE]'),
    });
    expect(result.text).toContain('its tool call was not run');
    expect(existsSync(join(h.root, 'cut.txt'))).toBe(false);
    expect(h.events.some((e) => e.type === 'approval_requested' || e.type === 'tool_started')).toBe(false);
    expect(turnDone(h.events)?.stop).toBe('truncated');
  });

  it('an answer cut at the output limit (finish_reason "length"): its call is not run, the model is told, the turn goes on', async () => {
    h = await startSession([
      {
        toolCalls: [{ name: 'write_file', args: '{"path":"half.txt","content":"abc' }],
        finishReason: 'length',
      },
      { text: 'I will write it in parts.' },
    ]);
    expect(await h.session.run('write')).toEqual({ status: 'done', text: 'I will write it in parts.' });
    expect(existsSync(join(h.root, 'half.txt'))).toBe(false);
    expect(JSON.parse(lastToolMessage(h.fake.requests[1] as RecordedRequest)?.content ?? '{}')).toMatchObject(
      { status: 'error', reason: expect.stringMatching(/^truncated: /) },
    );
    expect(h.events.some((e) => e.type === 'approval_requested')).toBe(false);
  });
});

describe('a prompt too big for the context', () => {
  it('is refused without poisoning the session: the next prompt runs without /clear', async () => {
    h = await startSession([{ text: 'small one answered' }], { session: { contextWindowTokens: 20_000 } });
    const refused = await h.session.run(`summarise: ${'z'.repeat(100_000)}`);
    expect(refused).toMatchObject({ status: 'failed', stop: 'context_window' });
    expect(await h.session.run('a small question')).toEqual({ status: 'done', text: 'small one answered' });
    expect(JSON.stringify(h.fake.requests[0]?.body.messages)).not.toContain('zzzz');
  });
});
