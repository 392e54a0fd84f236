import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/fake-openai';
import { lastToolMessage } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';
import { auditLines } from '../helpers/audit-lines';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const envelope = (req: RecordedRequest | undefined) =>
  JSON.parse(lastToolMessage(req as RecordedRequest)?.content ?? '{}');
const write = (path: string, content: string) => ({
  text: `I will write ${path}.`,
  toolCalls: [{ name: 'write_file', args: { path, content } }],
});

describe('a session through the real openai client and the fake server', () => {
  it('approve: the file lands and the model is told it executed', async () => {
    h = await startSession([write('a.txt', 'hello\n'), { text: 'Done.' }]);
    const run = h.session.run('write a');
    const request = await h.nextRequest();
    expect(request.preview).toMatchObject({ kind: 'diff', path: 'a.txt', isNew: true, after: 'hello\n' });
    expect(request.why).toContain('I will write a.txt');
    h.decide(request.id, { kind: 'approve' });
    expect(await run).toEqual({ status: 'done', text: 'Done.' });
    expect(readFileSync(join(h.root, 'a.txt'), 'utf8')).toBe('hello\n');
    expect(envelope(h.fake.requests[1])).toMatchObject({ status: 'executed' });
    const outcome = auditLines(h.home).find((r) => r.phase === 'outcome');
    expect(outcome).toMatchObject({
      tool: 'write_file',
      outcome: 'executed',
      approver: 'human',
      requestId: request.id,
    });
  });

  it('reject with a reason: nothing is written and the model receives the reason as JSON', async () => {
    h = await startSession([write('a.txt', 'x'), { text: 'Understood.' }]);
    const run = h.session.run('write a');
    const request = await h.nextRequest();
    h.decide(request.id, { kind: 'reject', reason: 'use src/, not the root' });
    await run;
    expect(existsSync(join(h.root, 'a.txt'))).toBe(false);
    expect(envelope(h.fake.requests[1])).toEqual({
      status: 'rejected',
      by: 'user',
      reason: 'use src/, not the root',
      retry: true,
    });
  });

  it('skip and edit: a skipped call does nothing; an edited call writes the edited content', async () => {
    h = await startSession([
      { toolCalls: [{ name: 'write_file', args: { path: 'skip.txt', content: 's' } }] },
      write('b.txt', 'model text'),
      { text: 'ok' },
    ]);
    const run = h.session.run('two writes');
    const first = await h.nextRequest();
    h.decide(first.id, { kind: 'skip' });
    const second = await h.nextRequest();
    h.decide(second.id, { kind: 'edit', args: { path: 'b.txt', content: 'person text' } });
    await run;
    expect(existsSync(join(h.root, 'skip.txt'))).toBe(false);
    expect(readFileSync(join(h.root, 'b.txt'), 'utf8')).toBe('person text');
    expect(envelope(h.fake.requests[1])).toMatchObject({ status: 'skipped' });
    expect(
      auditLines(h.home).find(
        (r) => r.phase === 'outcome' && r.tool === 'write_file' && r.outcome === 'executed',
      )?.editedArgs,
    ).toEqual({ path: 'b.txt', content: 'person text' });
  });

  it('blocked: a write outside the project never asks and the model learns the rule', async () => {
    h = await startSession([write('../outside.txt', 'x'), { text: 'I cannot.' }]);
    const result = await h.session.run('escape');
    expect(result.status).toBe('done');
    expect(h.session.client.snapshot().pending).toHaveLength(0);
    expect(envelope(h.fake.requests[1])).toMatchObject({
      status: 'blocked',
      by: 'guard',
      rule: 'path-fence',
      retry: false,
    });
    expect(h.events.some((e) => e.type === 'approval_requested')).toBe(false);
  });

  it('invalid arguments from the model: a clear error naming the field, nothing runs', async () => {
    h = await startSession([{ toolCalls: [{ name: 'write_file', args: { path: 7 } }] }, { text: 'sorry' }]);
    await h.session.run('bad args');
    const env = envelope(h.fake.requests[1]);
    expect(env.status).toBe('error');
    expect(env.reason).toMatch(/path/);
    expect(h.events.some((e) => e.type === 'approval_requested')).toBe(false);
  });

  it('sub-agents run in parallel and both of their requests queue at once; none is lost', async () => {
    const byTask = (req: RecordedRequest) =>
      req.body.messages.find((m) => m.role === 'user')?.content as string;
    h = await startSession([
      {
        toolCalls: [
          {
            name: 'spawn_agents',
            args: {
              agents: [
                { name: 'one', task: 'TASK-ONE' },
                { name: 'two', task: 'TASK-TWO' },
              ],
            },
          },
        ],
      },
      ...[0, 1, 2, 3].map(() => (req: RecordedRequest) => {
        const task = byTask(req);
        const done = req.body.messages.some((m) => m.role === 'tool');
        const file = task === 'TASK-ONE' ? 'one.txt' : 'two.txt';
        return done ? { text: `report ${file}` } : write(file, task);
      }),
      { text: 'Both done.' },
    ]);
    const run = h.session.run('split the work');
    const pending = await h.pendingCount(2);
    expect(new Set(pending.map((r) => r.agentName))).toEqual(new Set(['one', 'two']));
    expect(pending.every((r) => r.parentAgentId === 'main')).toBe(true);
    for (const r of pending) h.decide(r.id, { kind: 'approve' });
    expect(await run).toMatchObject({ status: 'done', text: 'Both done.' });
    expect(readFileSync(join(h.root, 'one.txt'), 'utf8')).toBe('TASK-ONE');
    expect(readFileSync(join(h.root, 'two.txt'), 'utf8')).toBe('TASK-TWO');
    const reports = JSON.parse(envelope(h.fake.requests.at(-1)).output);
    expect(reports.map((r: { report: string }) => r.report).sort()).toEqual([
      'report one.txt',
      'report two.txt',
    ]);
  });

  it('cancel: the pending request ends as cancelled and nothing is written', async () => {
    h = await startSession([write('c.txt', 'x'), { text: 'never used' }]);
    const run = h.session.run('write c');
    await h.nextRequest();
    h.session.client.send({ type: 'cancel' });
    expect((await run).status).toBe('cancelled');
    expect(existsSync(join(h.root, 'c.txt'))).toBe(false);
    expect(h.session.client.snapshot().pending).toHaveLength(0);
    expect(auditLines(h.home).some((r) => r.outcome === 'cancelled')).toBe(true);
  });

  it('cancelling the turn cancels the sub-agents and every pending request of theirs', async () => {
    const sub = (req: RecordedRequest) =>
      write(`${String(req.body.messages.find((m) => m.role === 'user')?.content)}.txt`, 'x');
    h = await startSession([
      {
        toolCalls: [
          {
            name: 'spawn_agents',
            args: {
              agents: [
                { name: 'one', task: 'A' },
                { name: 'two', task: 'B' },
              ],
            },
          },
        ],
      },
      sub,
      sub,
    ]);
    const run = h.session.run('split');
    await h.pendingCount(2);
    h.session.client.send({ type: 'cancel' });
    expect((await run).status).toBe('cancelled');
    expect(h.session.client.snapshot().pending).toEqual([]);
    expect(h.session.client.snapshot().agents.map((a) => a.status)).toEqual(['cancelled', 'cancelled']);
    expect(existsSync(join(h.root, 'A.txt')) || existsSync(join(h.root, 'B.txt'))).toBe(false);
    // The two pending requests, and the task the person cancelled (issue 14 §1).
    expect(auditLines(h.home).filter((r) => r.phase === 'outcome' && r.outcome === 'cancelled')).toHaveLength(
      3,
    );
  });

  it('revert: revert_turn restores what the previous turn wrote', async () => {
    h = await startSession([
      write('r.txt', 'new'),
      { text: 'written' },
      { toolCalls: [{ name: 'revert_turn', args: { turns: 1 } }] },
      { text: 'reverted' },
    ]);
    writeFileSync(join(h.root, 'r.txt'), 'old');
    const first = h.session.run('change r');
    h.decide((await h.nextRequest()).id, { kind: 'approve' });
    await first;
    expect(readFileSync(join(h.root, 'r.txt'), 'utf8')).toBe('new');
    const second = h.session.run('undo that');
    const request = await h.nextRequest();
    expect(request.tool).toBe('revert_turn');
    expect(request.preview).toEqual({
      kind: 'json',
      effects: [
        'Reverts 1 turn(s): 1 changed, 0 created, 0 deleted file(s).',
        'restore r.txt (changed by the turn)',
      ],
    });
    expect(request.reversible).toBe(false);
    h.decide(request.id, { kind: 'approve' });
    await second;
    expect(readFileSync(join(h.root, 'r.txt'), 'utf8')).toBe('old');
  });

  it('ask_user: the answer goes back to the model', async () => {
    h = await startSession([
      { toolCalls: [{ name: 'ask_user', args: { question: 'Which port?', options: ['3000', '8080'] } }] },
      { text: 'ok' },
    ]);
    const run = h.session.run('serve it');
    const request = await h.nextRequest();
    expect(request.preview).toEqual({ kind: 'question', question: 'Which port?', options: ['3000', '8080'] });
    h.decide(request.id, { kind: 'answer', text: '8080' });
    await run;
    expect(envelope(h.fake.requests[1])).toMatchObject({ status: 'executed', output: '8080' });
  });

  it('propose_plan and update_plan reach the hub through their ToolContext: the plan is adopted, then ticked', async () => {
    h = await startSession([
      { toolCalls: [{ name: 'propose_plan', args: { title: 'Two steps', steps: ['first', 'second'] } }] },
      { toolCalls: [{ name: 'update_plan', args: { step: 1, done: true } }] },
      { toolCalls: [{ name: 'update_plan', args: { step: 3, done: true } }] },
      { text: 'done' },
    ]);
    const run = h.session.run('plan it');
    h.decide((await h.nextRequest()).id, { kind: 'approve_plan', steps: ['first', 'second'] });
    await run;
    expect(h.session.client.snapshot().plan).toEqual({
      title: 'Two steps',
      steps: [
        { text: 'first', done: true },
        { text: 'second', done: false },
      ],
    });
    expect(envelope(h.fake.requests[2])).toMatchObject({ status: 'executed', output: 'Step 1 marked done.' });
    expect(JSON.stringify(envelope(h.fake.requests[3]))).toMatch(/there is no step 3/);
  });

  it('headless: with no approver anything that would ask is denied as no_approver', async () => {
    h = await startSession([write('h.txt', 'x'), { text: 'could not' }], { approver: false });
    await h.session.run('write h');
    expect(existsSync(join(h.root, 'h.txt'))).toBe(false);
    expect(envelope(h.fake.requests[1])).toMatchObject({ status: 'error', by: 'gate' });
    expect(envelope(h.fake.requests[1]).reason).toMatch(/^no_approver/);
  });

  // 6 000 until issue 33 §4: execute_command's `network` parameter (the hosts a card approves) costs ~215.
  it('lean requests: the system prompt plus every tool schema stay under 6 250 characters and explain the gate', async () => {
    h = await startSession([{ text: 'hi' }]);
    await h.session.run('hello');
    const body = h.fake.requests[0]?.body;
    const system = String(body?.messages[0]?.content ?? '');
    expect(system.length + JSON.stringify(body?.tools ?? []).length).toBeLessThan(6250);
    expect(system).toMatch(/rejected/);
    expect(system).toMatch(/blocked/);
    expect((body?.tools ?? []).map((t) => t.function.name)).toEqual(
      expect.arrayContaining([
        'read_file',
        'write_file',
        'execute_command',
        'spawn_agents',
        'propose_plan',
        'ask_user',
        'revert_turn',
      ]),
    );
  });

  it('AGENTS.md at the project root goes into the system prompt, and the mode is stated there', async () => {
    h = await startSession([{ text: 'ok' }], {
      files: { 'AGENTS.md': 'Always run npm test before saying done.' },
      session: { mode: 'plan' },
    });
    await h.session.run('hi');
    const system = String(h.fake.requests[0]?.body.messages[0]?.content);
    expect(system).toContain('Always run npm test before saying done.');
    expect(system).toMatch(/plan — read-only/);
  });

  it('max steps per turn: the turn stops with a clear message', async () => {
    const read = { toolCalls: [{ name: 'list_dir', args: {} }] };
    // Nobody to answer the step limit's escalation card (issue 14 §3): the turn stops as before.
    h = await startSession([read, read, read, read], { session: { maxStepsPerTurn: 2 }, approver: false });
    const result = await h.session.run('loop');
    expect(result.status).toBe('failed');
    expect(result.text).toMatch(/Stopped after 2 steps.*maxStepsPerTurn/);
    expect(h.events.some((e) => e.type === 'error')).toBe(true);
  });

  it('a history too long for the context window ends the turn with a clear message, before any request', async () => {
    h = await startSession([{ text: 'never' }], { session: { contextWindowTokens: 200 } });
    const result = await h.session.run('x'.repeat(2000));
    expect(result).toMatchObject({
      status: 'failed',
      text: expect.stringMatching(/no longer fits the model's context of 200 tokens/),
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('a 500 then success: the turn completes', async () => {
    h = await startSession([{ status: 500 }, { text: 'recovered' }]);
    expect(await h.session.run('hi')).toEqual({ status: 'done', text: 'recovered' });
  });

  it('abort mid-stream: cancel ends the turn promptly', async () => {
    h = await startSession([{ text: 'a long answer that never ends', chunkSize: 3, hangAfterChunks: 3 }]);
    const run = h.session.run('talk');
    await new Promise<void>((resolve) => {
      const check = () =>
        h?.events.some((e) => e.type === 'message_delta') ? resolve() : setImmediate(check);
      check();
    });
    h.session.client.send({ type: 'cancel' });
    expect((await run).status).toBe('cancelled');
  });
});
