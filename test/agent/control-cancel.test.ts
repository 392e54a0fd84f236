import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RecordedRequest } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';
import { auditLines } from '../helpers/audit-lines';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const firstUser = (req: RecordedRequest) => req.body.messages.find((m) => m.role === 'user')?.content ?? '';
const toolMessages = (req: RecordedRequest) => req.body.messages.filter((m) => m.role === 'tool');

describe('c cancels the requesting agent’s whole task (issue 14 §1)', () => {
  it('five queued writes: one c fails them all closed, and no further model request is made', async () => {
    const writes = [1, 2, 3, 4, 5].map((i) => ({
      name: 'write_file',
      args: { path: `f${i}.txt`, content: `${i}\n` },
    }));
    h = await startSession([{ text: 'Writing five files.', toolCalls: writes }, { text: 'never asked' }]);
    const run = h.session.run('write five files');
    const first = await h.nextRequest();
    h.decide(first.id, { kind: 'cancel_task' });
    expect(await run).toMatchObject({ status: 'cancelled' });
    expect(h.fake.requests).toHaveLength(1);
    for (const i of [1, 2, 3, 4, 5]) expect(existsSync(join(h.root, `f${i}.txt`))).toBe(false);
    expect(h.session.client.snapshot().pending).toEqual([]);
    const finished = h.events.filter((e) => e.type === 'tool_finished');
    expect(finished).toHaveLength(5);
    for (const e of finished) {
      expect(e.type === 'tool_finished' && e.result.status).toBe('cancelled');
      expect(e.type === 'tool_finished' && e.result.reason).toMatch(/^task_cancelled:/);
    }
    const audit = auditLines(h.home);
    expect(audit.find((r) => r.requestId === first.id && r.phase === 'outcome')).toMatchObject({
      outcome: 'cancelled',
      reason: expect.stringMatching(/^task_cancelled/),
    });
    expect(audit.find((r) => r.tool === 'task')).toMatchObject({
      outcome: 'cancelled',
      approver: 'human',
      taskId: first.taskId,
      reason: expect.stringMatching(/^task_cancelled: The person cancelled/),
    });
    expect(
      h.session.client
        .snapshot()
        .transcript.some((t) => t.kind === 'notice' && /Cancelled main's task/.test(t.text)),
    ).toBe(true);
  });

  it('a running command is killed when its task is cancelled from another card of the same task', async () => {
    h = await startSession(
      [
        {
          text: 'Two things.',
          toolCalls: [
            { name: 'execute_command', args: { command: 'sleep 30; echo late > late.txt' } },
            { name: 'write_file', args: { path: 'w.txt', content: 'w' } },
          ],
        },
      ],
      { session: { mode: 'auto' } },
    );
    const run = h.session.run('go');
    // auto mode: the command runs without asking; the write asks after it. Cancel via Esc-like cancel.
    await vi.waitFor(() => expect(h?.events.some((e) => e.type === 'tool_started')).toBe(true));
    const started = Date.now();
    h.session.client.send({ type: 'cancel' });
    expect(await run).toMatchObject({ status: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(join(h.root, 'late.txt'))).toBe(false);
    expect(h.fake.requests).toHaveLength(1);
  });

  it('a sub-agent’s cancelled card cancels only that sub-agent; the parent is told the person cancelled it', async () => {
    const reply = (req: RecordedRequest) => {
      const task = firstUser(req);
      const done = req.body.messages.some((m) => m.role === 'tool');
      if (task.startsWith('[a]'))
        return done
          ? { text: 'a done' }
          : { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a' } }] };
      if (task.startsWith('[b]'))
        return done
          ? { text: 'b done' }
          : { toolCalls: [{ name: 'write_file', args: { path: 'b.txt', content: 'b' } }] };
      if (!done)
        return {
          toolCalls: [
            {
              name: 'spawn_agents',
              args: {
                agents: [
                  { name: 'alpha', task: '[a] write a.txt' },
                  { name: 'beta', task: '[b] write b.txt' },
                ],
              },
            },
          ],
        };
      return { text: 'main done' };
    };
    h = await startSession(Array.from({ length: 8 }, () => reply));
    const run = h.session.run('split the work');
    const both = await h.pendingCount(2);
    const a = both.find((r) => r.agentName === 'alpha');
    const b = both.find((r) => r.agentName === 'beta');
    if (!a || !b) throw new Error('both sub-agents should ask');
    h.decide(a.id, { kind: 'cancel_task' });
    // The other agent's request stays.
    await vi.waitFor(() => expect(h?.session.client.snapshot().pending.map((r) => r.id)).toEqual([b.id]));
    h.decide(b.id, { kind: 'approve' });
    expect(await run).toMatchObject({ status: 'done', text: 'main done' });
    expect(existsSync(join(h.root, 'a.txt'))).toBe(false);
    expect(existsSync(join(h.root, 'b.txt'))).toBe(true);
    // alpha asked the model once; it never asked for a next step.
    expect(h.fake.requests.filter((r) => firstUser(r).startsWith('[a]'))).toHaveLength(1);
    const agents = h.session.client.snapshot().agents;
    expect(agents.find((x) => x.name === 'alpha')?.status).toBe('cancelled');
    expect(agents.find((x) => x.name === 'beta')?.status).toBe('done');
    const last = h.fake.requests.at(-1) as RecordedRequest;
    const reports = JSON.parse(toolMessages(last).at(-1)?.content ?? '{}');
    expect(reports.output ?? JSON.stringify(reports)).toMatch(/Cancelled by the person/);
    expect(JSON.stringify(reports)).toMatch(/"status":"cancelled"/);
  });
});
