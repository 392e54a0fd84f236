import { describe, expect, it } from 'vitest';
import { answer, chunk, DONE, fault, toolCall } from '../helpers/fault-openai';
import { clientFor, failure, request, useFaultServer } from '../helpers/openai-client';

const { serve } = useFaultServer();

/** Runs `work` and returns how long it took, in ms. */
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

describe('the idle timer counts bytes of progress', () => {
  it('stops a server that streams empty chunks forever, and says so', async () => {
    const s = await serve(fault.emptyForever(20), fault.emptyForever(20));
    const notices: string[] = [];
    const [err, ms] = await timed(() =>
      failure(
        clientFor(s.url, { idleTimeoutMs: 500 }).complete(request({ onRetry: (n) => notices.push(n) })),
      ),
    );
    expect(err.code).toBe('idle_timeout');
    expect(err.message).toContain(
      'sent only empty chunks (no part of an answer) for 500 ms (streamIdleTimeoutSec) after 2 attempts',
    );
    // One retry for a silent server, then the message: not maxRetries of them.
    expect(s.requests).toBe(2);
    expect(notices).toEqual([expect.stringMatching(/only empty chunks .*; trying again \(attempt 2 of 4\)/)]);
    expect(ms).toBeLessThan(5_000);
  });

  it('keeps a slow but live stream: one byte every 200 ms for several seconds, idle set to 600 ms', async () => {
    const slow = chunk({ content: 'slow but alive' });
    const s = await serve(
      fault.trickle(
        chunk({ role: 'assistant', content: '' }) + slow.slice(0, -20),
        slow.slice(-20),
        200,
        chunk({}, 'stop') + DONE,
      ),
    );
    const [turn, ms] = await timed(() => clientFor(s.url, { idleTimeoutMs: 600 }).complete(request()));
    expect(turn.text).toBe('slow but alive');
    expect(s.requests).toBe(1);
    // The stream outlived the idle setting several times over.
    expect(ms).toBeGreaterThan(3_000);
  });

  it('counts keep-alive comments as a live server (the answer comes after a while)', async () => {
    const s = await serve(fault.keepAlive(12, 100, answer('after the queue')));
    const [turn, ms] = await timed(() => clientFor(s.url, { idleTimeoutMs: 400 }).complete(request()));
    expect(turn.text).toBe('after the queue');
    expect(ms).toBeGreaterThan(1_000);
  });

  it('gives up on a hung server quickly: one retry, then a message naming the setting', async () => {
    const s = await serve(fault.hang(), fault.hang(), fault.hang(), fault.hang());
    const notices: string[] = [];
    const [err, ms] = await timed(() =>
      failure(
        clientFor(s.url, { idleTimeoutMs: 300 }).complete(request({ onRetry: (n) => notices.push(n) })),
      ),
    );
    expect(err.code).toBe('idle_timeout');
    expect(err.message).toContain('sent nothing for 300 ms (streamIdleTimeoutSec) after 2 attempts');
    expect(err.message).toContain('raise streamIdleTimeoutSec');
    expect(s.requests).toBe(2);
    expect(notices).toHaveLength(1);
    expect(ms).toBeLessThan(3_000);
  });
});

describe('the deadline for one answer (turnTimeoutSec)', () => {
  it('ends a live stream that never finishes, and says which limit fired', async () => {
    const s = await serve(fault.keepAlive(Number.POSITIVE_INFINITY, 50, ''));
    const [err, ms] = await timed(() =>
      failure(clientFor(s.url, { idleTimeoutMs: 5_000, turnTimeoutMs: 800 }).complete(request())),
    );
    expect(err.code).toBe('turn_timeout');
    expect(err.message).toContain(
      'did not finish its answer within 800 ms, the limit for one answer (turnTimeoutSec)',
    );
    expect(ms).toBeLessThan(3_000);
  });

  it('covers the waits between attempts too', async () => {
    const s = await serve(fault.status(503, { 'retry-after': '15' }), fault.send(answer('too late')));
    const [err, ms] = await timed(() =>
      failure(clientFor(s.url, { turnTimeoutMs: 500 }).complete(request())),
    );
    expect(err.code).toBe('turn_timeout');
    expect(s.requests).toBe(1);
    expect(ms).toBeLessThan(3_000);
  });

  it('says the partial answer was not kept when text had been shown', async () => {
    const s = await serve(fault.trickle(chunk({ content: 'start' }), 'x'.repeat(100), 50, ''));
    const shown: string[] = [];
    const err = await failure(
      clientFor(s.url, { turnTimeoutMs: 700 }).complete(request({ onText: (d) => shown.push(d) })),
    );
    expect(shown.join('')).toBe('start');
    expect(err.code).toBe('turn_timeout');
    expect(err.message).toContain('the partial answer was not kept');
  });

  it('a cancel while waiting is a cancel, not a timeout', async () => {
    const s = await serve(fault.hang());
    const controller = new AbortController();
    const pending = failure(
      clientFor(s.url, { turnTimeoutMs: 60_000 }).complete(request({ signal: controller.signal })),
    );
    await expect.poll(() => s.requests).toBe(1);
    controller.abort();
    expect((await pending).code).toBe('aborted');
  });
});

describe('a stream that ends without finish_reason or [DONE] is cut short', () => {
  const role = chunk({ role: 'assistant', content: '' });
  const call = toolCall('call_1', 'write_file', '{"path":"a.txt","content":"x"}');

  it('is retried when nothing was shown, and its tool calls never come back', async () => {
    const s = await serve(
      fault.send(role + call),
      fault.send(role + chunk({ content: 'whole' }) + chunk({}, 'stop') + DONE),
    );
    const turn = await clientFor(s.url).complete(request());
    expect(turn).toMatchObject({ text: 'whole', toolCalls: [] });
    expect(s.requests).toBe(2);
  });

  it('fails with a clear message when every attempt is cut', async () => {
    const s = await serve(fault.send(role + call), fault.send(role + call), fault.send(answer('never')));
    const err = await failure(clientFor(s.url).complete(request()));
    expect(err.code).toBe('truncated');
    expect(err.message).toContain('no finish_reason and no [DONE]');
    expect(err.message).toContain('its tool call was not run');
    expect(s.requests).toBe(2);
  });

  it('is not retried once text was shown', async () => {
    const s = await serve(
      fault.send(role + chunk({ content: 'I will write.' }) + call),
      fault.send(answer('never')),
    );
    const err = await failure(clientFor(s.url).complete(request()));
    expect(err.code).toBe('truncated');
    expect(err.message).toContain('stopped mid-answer');
    expect(s.requests).toBe(1);
  });

  it.each([
    ['finish_reason without [DONE]', role + call + chunk({}, 'tool_calls'), 1],
    ['[DONE] without finish_reason', role + call + DONE, 1],
  ])('%s is a complete answer', async (_name, body, calls) => {
    const s = await serve(fault.send(body));
    expect((await clientFor(s.url).complete(request())).toolCalls).toHaveLength(calls);
  });

  it('text that merely mentions data: [DONE] does not end a stream', async () => {
    const s = await serve(
      fault.send(role + chunk({ content: 'data: [DONE]' }) + call),
      fault.send(answer('never')),
    );
    expect((await failure(clientFor(s.url).complete(request()))).code).toBe('truncated');
  });
});
