import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RecordedRequest } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';
import { auditLines } from '../helpers/audit-lines';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const userTexts = (req: RecordedRequest) =>
  req.body.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
const finishedBy = (agentId: string) =>
  h?.events.filter((e) => e.type === 'tool_finished' && e.agentId === agentId) ?? [];

describe('pause, take over, resume (issue 14 §2)', () => {
  it('pause stops new model requests; !cmd runs as the person (audited origin person) and its output and the note reach the next request', async () => {
    h = await startSession([
      { text: 'Writing.', toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
      { text: 'Thanks, going on.' },
    ]);
    const run = h.session.run('write a');
    const request = await h.nextRequest();
    h.session.client.send({ type: 'pause' });
    expect(h.session.client.snapshot().paused).toEqual({ all: true, agents: [] });
    // The call in flight finishes: approving it runs the write.
    h.decide(request.id, { kind: 'approve' });
    await vi.waitFor(() => expect(finishedBy('main')).toHaveLength(1));
    // !command while paused: runs through the gate as the person, no card.
    h.session.client.send({ type: 'run_as_person', command: 'echo hi-from-person' });
    // A sandboxed run and its checkpoint can take over vi.waitFor's 1 s default on a loaded machine.
    await vi.waitFor(() => expect(finishedBy('person')).toHaveLength(1), { timeout: 15_000 });
    const ran = finishedBy('person')[0];
    expect(ran?.type === 'tool_finished' && ran.result.status).toBe('executed');
    expect(h.session.client.snapshot().pending).toEqual([]);
    // Paused: the model was not asked again while the person worked.
    expect(h.fake.requests).toHaveLength(1);
    const audit = auditLines(h.home).filter((r) => r.origin === 'person');
    expect(audit.map((r) => r.phase)).toEqual(['decision', 'outcome']);
    expect(audit[1]).toMatchObject({
      approver: 'human',
      origin: 'person',
      outcome: 'executed',
      agentId: 'person',
    });
    h.session.client.send({ type: 'resume', note: 'I ran echo for you' });
    expect(await run).toMatchObject({ status: 'done', text: 'Thanks, going on.' });
    expect(h.session.client.snapshot().paused).toBeUndefined();
    const next = userTexts(h.fake.requests[1] as RecordedRequest).join('\n');
    expect(next).toContain('The person ran `echo hi-from-person` themselves; output:');
    expect(next).toContain('hi-from-person');
    expect(next).toContain("The person's note: I ran echo for you");
  });

  it('paused new tool calls wait instead of failing, and run after resume', async () => {
    let paused!: () => void;
    const pausedNow = new Promise<void>((resolve) => {
      paused = resolve;
    });
    h = await startSession(
      [
        // The model answers only once the pause is in: its call arrives while paused.
        async () => {
          await pausedNow;
          return { text: 'Reading.', toolCalls: [{ name: 'read_file', args: { path: 'r.txt' } }] };
        },
        { text: 'done' },
      ],
      { files: { 'r.txt': 'r' } },
    );
    h.session.client.send({ type: 'pause' }); // nothing runs: refused with a notice
    expect(h.session.client.snapshot().paused).toBeUndefined();
    const run = h.session.run('read r');
    await h.fake.waitForRequests(1);
    h.session.client.send({ type: 'pause', agentId: 'main' });
    expect(h.session.client.snapshot().paused).toEqual({ all: false, agents: ['main'] });
    paused();
    // The person's own command finishing while the read was due shows the read is held, not merely late.
    await vi.waitFor(() => expect(h?.events.some((e) => e.type === 'message_done')).toBe(true));
    h.session.client.send({ type: 'run_as_person', command: 'echo marker' });
    // A sandboxed run and its checkpoint can take over vi.waitFor's 1 s default on a loaded machine.
    await vi.waitFor(() => expect(finishedBy('person')).toHaveLength(1), { timeout: 15_000 });
    // A held call has not even started (its card appears when it goes on).
    expect(h.events.filter((e) => e.type === 'tool_started' && e.agentId === 'main')).toHaveLength(0);
    h.session.client.send({ type: 'resume' });
    expect(await run).toMatchObject({ status: 'done' });
    expect(finishedBy('main')).toHaveLength(1);
    expect(h.fake.requests).toHaveLength(2);
  });

  it('!command while an agent runs unpaused is refused; a denied command stays denied for the person', async () => {
    h = await startSession([
      { text: 'Writing.', toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a' } }] },
      { text: 'ok' },
    ]);
    const run = h.session.run('write');
    const request = await h.nextRequest();
    h.session.client.send({ type: 'run_as_person', command: 'echo nope' });
    expect(finishedBy('person')).toHaveLength(0);
    expect(
      h.session.client
        .snapshot()
        .transcript.some((t) => t.kind === 'notice' && /pause it first/.test(t.text)),
    ).toBe(true);
    h.decide(request.id, { kind: 'approve' });
    await run;
    // Idle: a person's command runs; a hard guard still blocks what no approval may run.
    h.session.client.send({ type: 'run_as_person', command: 'rm -rf /' });
    // A sandboxed run and its checkpoint can take over vi.waitFor's 1 s default on a loaded machine.
    await vi.waitFor(() => expect(finishedBy('person')).toHaveLength(1), { timeout: 15_000 });
    const blocked = finishedBy('person')[0];
    expect(blocked?.type === 'tool_finished' && blocked.result.status).toBe('blocked');
  });

  it('edit_plan replaces the steps and the paused agent reads them when it goes on', async () => {
    h = await startSession([
      { text: 'Plan.', toolCalls: [{ name: 'propose_plan', args: { title: 'T', steps: ['one', 'two'] } }] },
      { text: 'Writing.', toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a' } }] },
      { text: 'done' },
    ]);
    const run = h.session.run('plan it');
    const plan = await h.nextRequest();
    h.decide(plan.id, { kind: 'approve_plan', steps: ['one', 'two'] });
    const write = await h.nextRequest();
    h.session.client.send({ type: 'pause', agentId: 'main' });
    h.session.client.send({ type: 'edit_plan', steps: ['one', 'two, but in src/', 'three'] });
    expect(h.session.client.snapshot().plan?.steps.map((s) => s.text)).toEqual([
      'one',
      'two, but in src/',
      'three',
    ]);
    h.decide(write.id, { kind: 'approve' });
    h.session.client.send({ type: 'resume' });
    await run;
    const last = userTexts(h.fake.requests.at(-1) as RecordedRequest).join('\n');
    expect(last).toContain('The person edited the plan "T"');
    expect(last).toContain('2. two, but in src/');
  });
});
