import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SIDE_BY_SIDE } from '../../src/agent/loop';
import type { CoreEvent } from '../../src/protocol';
import { HomeGuard } from '../../src/trust/home-guard';
import type { RecordedRequest } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.dispose();
  h = undefined;
});

const reads = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: 'read_file', args: { path: `f${i % 5}.txt` } }));
const files = Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`f${i}.txt`, `file ${i}\n`]));
const of = <T extends CoreEvent['type']>(events: CoreEvent[], type: T) =>
  events.filter((e): e is Extract<CoreEvent, { type: T }> => e.type === type);

describe('a burst of parallel calls (issue 16)', () => {
  it(`runs every call once, at most ${SIDE_BY_SIDE} at a time, as one batch, and answers in the model's order`, async () => {
    const n = SIDE_BY_SIDE * 3 + 7;
    h = await startSession([{ toolCalls: reads(n) }, { text: 'read them all' }], { files });
    let inFlight = 0;
    let most = 0;
    h.session.client.subscribe((e) => {
      if (e.type === 'tool_started') most = Math.max(most, ++inFlight);
      if (e.type === 'tool_finished') inFlight -= 1;
    });
    expect(await h.session.run('read them')).toMatchObject({ status: 'done', text: 'read them all' });
    const started = of(h.events, 'tool_started');
    const finished = of(h.events, 'tool_finished');
    expect(started).toHaveLength(n);
    expect(finished.every((e) => e.result.status === 'executed')).toBe(true);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(SIDE_BY_SIDE);
    const batch = started[0]?.batch;
    expect(batch).toEqual({ id: expect.any(String), size: n });
    expect(started.every((e) => e.batch?.id === batch?.id)).toBe(true);
    // The transcript's cards carry it too (the UI groups by it).
    const cards = h.session.client.snapshot().transcript.filter((e) => e.kind === 'tool');
    expect(cards.every((c) => c.kind === 'tool' && c.batch?.id === batch?.id)).toBe(true);
    // The model gets one result per call, in the order it asked, each for its own file.
    const next = h.fake.requests[1] as RecordedRequest;
    const asked = next.body.messages.find((m) => m.role === 'assistant')?.tool_calls ?? [];
    const answered = next.body.messages.filter((m) => m.role === 'tool');
    expect(answered.map((m) => (m.role === 'tool' ? m.tool_call_id : ''))).toEqual(asked.map((c) => c.id));
    answered.forEach((m, i) => expect(m.content).toContain(`file ${i % 5}`));
  });

  it('a long burst lets the event loop turn: a cancel sent from a timer mid-burst stops the calls not yet run', async () => {
    // Small reads finish without waiting for the disk; without pauses the whole burst would run
    // before any key, timer or frame.
    const n = 3000;
    h = await startSession([{ toolCalls: reads(n) }, { text: 'not reached' }], {
      files,
      session: { contextWindowTokens: 10_000_000 },
    });
    let finishedAtCancel = -1;
    let finished = 0;
    h.session.client.subscribe((e) => {
      if (e.type === 'tool_finished') finished += 1;
      if (e.type !== 'tool_started' || finishedAtCancel >= 0) return;
      finishedAtCancel = 0;
      setImmediate(() => {
        finishedAtCancel = finished;
        h?.session.client.send({ type: 'cancel' });
      });
    });
    expect((await h.session.run('read them')).status).toBe('cancelled');
    const results = of(h.events, 'tool_finished').map((e) => e.result.status);
    expect(results).toHaveLength(n);
    expect(finishedAtCancel).toBeLessThan(n);
    expect(results.filter((s) => s === 'cancelled').length).toBeGreaterThan(0);
    expect(h.fake.requests).toHaveLength(1);
  });

  it('a single call runs alone: no batch', async () => {
    h = await startSession([{ toolCalls: reads(1) }, { text: 'done' }], { files });
    await h.session.run('read one');
    expect(of(h.events, 'tool_started')[0]?.batch).toBeUndefined();
  });

  it('the home guard looks once a batch of reads ends (not after each); a change no read could make is kept and read again (issue 29 §2)', async () => {
    const looks = vi.spyOn(HomeGuard.prototype, 'acceptAll');
    h = await startSession([{ toolCalls: reads(40) }, { text: 'done' }], { files });
    const policy = join(h.home, 'policy.json');
    writeFileSync(policy, '{"rules":[]}\n');
    // The person's own edit between turns is accepted when the turn starts.
    let edited = false;
    const edit = '{"rules":[{"tool":"write_file","decision":"deny"}]}\n';
    h.session.client.subscribe((e) => {
      if (e.type !== 'tool_started' || edited) return;
      edited = true;
      writeFileSync(policy, edit);
    });
    await h.session.run('read them');
    expect(edited).toBe(true);
    expect(readFileSync(policy, 'utf8')).toBe(edit);
    expect(of(h.events, 'notice').filter((e) => e.text.includes('changed behind the gate'))).toHaveLength(0);
    expect(of(h.events, 'notice').filter((e) => e.text.includes('kept as your edit'))).toHaveLength(1);
    // Once when the turn starts, once when the batch of reads ends.
    expect(looks).toHaveBeenCalledTimes(2);
  });
});
