import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, CoreEvent, TranscriptEntry } from '../../src/protocol';
import { initialCoreState, SessionState } from '../../src/session/session-state';
import { type SessionHarness, startSession } from '../helpers/session-harness';

type Card = Extract<TranscriptEntry, { kind: 'tool' }>;

const started = (callId: string): CoreEvent => ({
  type: 'tool_started',
  agentId: 'main',
  callId,
  tool: 'write_file',
  args: { path: `${callId}.txt` },
});
const requested = (id: string, callId: string): CoreEvent => ({
  type: 'approval_requested',
  request: { id, callId, agentId: 'main', tool: 'write_file' } as ApprovalRequest,
});

function view() {
  const v = new SessionState(
    initialCoreState({
      sessionId: 's',
      root: '/p',
      model: { name: 'm', demo: false },
      mode: 'manual',
      sandboxed: true,
    }),
  );
  const cards = () => v.state.transcript.filter((e): e is Card => e.kind === 'tool');
  return { v, cards, status: () => cards().map((c) => c.status) };
}

describe('tool cards in the session state', () => {
  it('a queue of requests: deciding one runs only its card; the others keep waiting', () => {
    const { v, status } = view();
    for (const id of ['c1', 'c2', 'c3']) v.apply(started(id));
    v.apply(requested('r1', 'c1'));
    v.apply(requested('r2', 'c2'));
    v.apply(requested('r3', 'c3'));
    expect(status()).toEqual(['waiting', 'waiting', 'waiting']);
    v.apply({ type: 'approval_resolved', requestId: 'r2', outcome: 'executed', approver: 'human' });
    expect(status()).toEqual(['waiting', 'running', 'waiting']);
    // A rejection does not make the card run; its tool_finished says how it ended.
    v.apply({ type: 'approval_resolved', requestId: 'r1', outcome: 'rejected', approver: 'human' });
    expect(status()).toEqual(['waiting', 'running', 'waiting']);
  });

  it('approval restarts the elapsed time: a card counts from when it began running, not from the ask', () => {
    const { v, cards } = view();
    v.apply(started('c1'));
    v.apply(requested('r1', 'c1'));
    const asked = cards()[0]?.startedAt ?? 0;
    const before = Date.now();
    v.apply({ type: 'approval_resolved', requestId: 'r1', outcome: 'executed', approver: 'human' });
    expect(cards()[0]?.startedAt).toBeGreaterThanOrEqual(Math.max(asked, before));
  });

  it('output: a live tail while running; the whole result and no tail once finished', () => {
    const { v, cards } = view();
    v.apply(started('c1'));
    v.apply({ type: 'tool_output', agentId: 'main', callId: 'c1', chunk: 'one\ntwo\nthr' });
    expect(cards()[0]?.tail).toEqual({ lines: ['one', 'two', 'thr'], total: 3 });
    const output = Array.from({ length: 26 }, (_, i) => `line ${i + 1}`).join('\n');
    v.apply({
      type: 'tool_finished',
      agentId: 'main',
      callId: 'c1',
      tool: 'write_file',
      result: { status: 'executed', output },
    });
    expect(cards()[0]).toMatchObject({ status: 'executed', result: 'line 1', output });
    expect(cards()[0]?.tail).toBeUndefined();
    // Gone, not left behind as an undefined field (a finished card is printed and saved as it is).
    expect(Object.keys(cards()[0] ?? {})).not.toContain('tail');
  });

  it('an edited call finishes with "edited by you" on its card, the card of a call that never had output too', () => {
    const { v, cards } = view();
    v.apply(started('c1'));
    v.apply({
      type: 'tool_finished',
      agentId: 'main',
      callId: 'c1',
      tool: 'write_file',
      result: {
        status: 'executed',
        output: 'ok',
        edited: { by: 'user', note: 'path changed', args: { path: 'b' }, changes: ['path: a → b'] },
      },
    });
    expect(cards()[0]?.summary).toMatch(/ · edited by you$/);
    expect(cards()[0]?.output).toBe('ok\n✎ edited by you: path: a → b');
    expect(Object.keys(cards()[0] ?? {})).not.toContain('tail');
  });
});

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const command = (cmd: string) => ({ toolCalls: [{ name: 'execute_command', args: { command: cmd } }] });
const outputOf = (events: CoreEvent[]) =>
  events.flatMap((e) => (e.type === 'tool_output' ? [e.chunk] : [])).join('');
async function until(check: () => boolean, what: string, timeout = 10_000): Promise<void> {
  const { vi } = await import('vitest');
  await vi.waitFor(
    () => {
      if (!check()) throw new Error(`still waiting for ${what}`);
    },
    { timeout, interval: 10 },
  );
}

/** Approves whatever asks (a read-only command may not ask at all: the policy decides). */
function approveAll(harness: SessionHarness): void {
  harness.session.client.subscribe((e) => {
    if (e.type === 'approval_requested') harness.decide(e.request.id, { kind: 'approve' });
  });
}

describe('a running command through a real session', () => {
  it("its output arrives as tool_output events before it finishes, and shows on its card's tail", async () => {
    h = await startSession([
      command('echo first; while [ ! -e go ]; do sleep 0.02; done; echo second'),
      { text: 'done' },
    ]);
    const harness = h;
    approveAll(harness);
    const run = harness.session.run('run it');
    await until(() => outputOf(harness.events).includes('first'), 'the first line');
    expect(harness.events.some((e) => e.type === 'tool_finished')).toBe(false);
    const card = harness.session.client
      .snapshot()
      .transcript.find((e): e is Card => e.kind === 'tool' && e.status === 'running');
    expect(card?.tail?.lines).toContain('first');
    writeFileSync(join(harness.root, 'go'), '');
    await run;
    const finished = harness.events.findIndex((e) => e.type === 'tool_finished');
    const firstOutput = harness.events.findIndex((e) => e.type === 'tool_output');
    expect(firstOutput).toBeLessThan(finished);
    const done = harness.session.client.snapshot().transcript.find((e): e is Card => e.kind === 'tool');
    expect(done?.output).toMatch(/first\nsecond/);
  });

  it('a command the person stopped ends "cancelled" (by the user), not "error"', async () => {
    h = await startSession([command('echo started; sleep 30'), { text: 'never' }]);
    const harness = h;
    approveAll(harness);
    const run = harness.session.run('run it');
    await until(() => outputOf(harness.events).includes('started'), 'the command to print');
    harness.session.client.send({ type: 'cancel' });
    await run;
    const finished = harness.events.find((e) => e.type === 'tool_finished');
    expect(finished?.type === 'tool_finished' && finished.result).toMatchObject({
      status: 'cancelled',
      by: 'user',
    });
    const card = harness.session.client.snapshot().transcript.find((e): e is Card => e.kind === 'tool');
    expect(card?.status).toBe('cancelled');
  });
});

describe('plan steps and sub-agents belong to their prompt', () => {
  it("a later prompt's calls carry no step of the previous prompt's plan, until they tick one", async () => {
    h = await startSession([
      { toolCalls: [{ name: 'propose_plan', args: { title: 'Two', steps: ['first', 'second'] } }] },
      { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a' } }] },
      { text: 'left step 1 open' },
      { toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'b' } }] },
      { text: 'other work' },
    ]);
    const harness = h;
    const first = harness.session.run('plan it');
    harness.decide((await harness.nextRequest()).id, { kind: 'approve_plan', steps: ['first', 'second'] });
    const during = await harness.nextRequest();
    expect(during.step).toMatchObject({ index: 1, total: 2, title: 'first' });
    harness.decide(during.id, { kind: 'approve' });
    await first;
    const second = harness.session.run('something else');
    const later = await harness.nextRequest();
    expect(later.step).toBeUndefined();
    harness.decide(later.id, { kind: 'approve' });
    await second;
    const steps = harness.events.flatMap((e) =>
      e.type === 'tool_started' && e.tool === 'write_file' ? [e.step?.index ?? null] : [],
    );
    expect(steps).toEqual([1, null]);
    expect(harness.session.client.snapshot().prompt).toBe(2);
  });
});
