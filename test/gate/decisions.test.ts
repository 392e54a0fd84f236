import { afterEach, describe, expect, it } from 'vitest';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

let h: GateHarness;
afterEach(() => h?.cleanup());

describe('a person decides', () => {
  it('approve: the write runs; the request carried who, what, why, the diff and the grant options', async () => {
    h = createGateHarness();
    h.write('src/a.txt', 'old\n');
    const result = h.call(
      'write_file',
      { path: 'src/a.txt', content: 'new\n' },
      {
        agentId: 'sub-1',
        agentName: 'tester',
        parentAgentId: 'main',
        taskId: 't9',
        step: { index: 2, total: 3, title: 'fix' },
        why: 'fix the typo',
      },
    );
    const request = await h.nextRequest();
    expect(request).toMatchObject({
      agentId: 'sub-1',
      agentName: 'tester',
      parentAgentId: 'main',
      taskId: 't9',
      step: { index: 2, total: 3, title: 'fix' },
      why: 'fix the typo',
      tool: 'write_file',
      args: { path: 'src/a.txt', content: 'new\n' },
      argsHash: expect.stringMatching(/^[0-9a-f]{32}$/),
      risk: { level: 'medium' },
      rule: { id: 'default-ask-write_file', source: 'builtin' },
      preview: { kind: 'diff', path: 'src/a.txt', before: 'old\n', after: 'new\n', isNew: false },
      reversible: true,
      expiresAt: expect.any(String),
    });
    expect(request.grantOptions.length).toBeGreaterThan(0);
    expect(h.read('src/a.txt')).toBe('old\n');
    expect(h.gate.decide(request.id, { kind: 'approve' })).toEqual({ ok: true });
    expect(await result).toMatchObject({ status: 'executed', output: 'wrote src/a.txt' });
    expect(h.read('src/a.txt')).toBe('new\n');
    const lines = h.auditOf(request.id);
    expect(lines.map((r) => [r.phase, r.decision, r.approver, r.outcome])).toEqual([
      ['requested', 'ask', 'none', undefined],
      ['decision', 'ask', 'human', undefined],
      ['outcome', 'ask', 'human', 'executed'],
    ]);
    expect(lines[0]).toMatchObject({
      agentId: 'sub-1',
      agentName: 'tester',
      taskId: 't9',
      tool: 'write_file',
      args: request.args,
      argsHash: request.argsHash,
    });
    expect(lines[0]?.waitMs).toBeUndefined();
    expect(lines[2]).toMatchObject({
      agentId: 'sub-1',
      taskId: 't9',
      tool: 'write_file',
      rule: 'default-ask-write_file',
      risk: 'medium',
      argsHash: request.argsHash,
      waitMs: expect.any(Number),
      durationMs: expect.any(Number),
    });
  });

  it('a new file previews as new; a command previews its details', async () => {
    h = createGateHarness();
    void h.call('write_file', { path: 'n.txt', content: 'hi' });
    expect((await h.nextRequest()).preview).toEqual({
      kind: 'diff',
      path: 'n.txt',
      before: '',
      after: 'hi',
      isNew: true,
    });
    void h.call('execute_command', { command: 'npm test && npm run lint', timeout_ms: 5000 });
    const command = await h.nextRequest();
    expect(command.preview).toEqual({
      kind: 'command',
      command: 'npm test && npm run lint',
      cwd: h.root,
      timeoutMs: 5000,
      sandboxed: true,
      parts: ['npm test', 'npm run lint'],
      notes: [],
    });
    expect(command.reversible).toBe(false);
  });

  it('reject with a reason: the model gets the reason as JSON, nothing runs', async () => {
    h = createGateHarness();
    const result = h.call('write_file', { path: 'tmp/x.txt', content: 'x' });
    const request = await h.nextRequest();
    h.gate.decide(request.id, { kind: 'reject', reason: 'use src/, not /tmp' });
    const envelope = await result;
    expect(JSON.parse(JSON.stringify(envelope))).toEqual({
      status: 'rejected',
      by: 'user',
      reason: 'use src/, not /tmp',
      retry: true,
    });
    expect(h.read('tmp/x.txt')).toBeUndefined();
    expect(h.auditOf(request.id).at(-1)).toMatchObject({
      outcome: 'rejected',
      approver: 'human',
      reason: 'use src/, not /tmp',
    });
  });

  it('reject without a reason says nothing more', async () => {
    h = createGateHarness();
    const result = h.call('execute_command', { command: 'npm test' });
    h.gate.decide((await h.nextRequest()).id, { kind: 'reject', reason: '   ' });
    expect(await result).toEqual({ status: 'rejected', by: 'user', retry: true });
    expect(h.ran()).toEqual([]);
  });

  it('skip: nothing runs, the model is told to carry on', async () => {
    h = createGateHarness();
    const result = h.call('mcp__fake__delete', { id: '7' });
    const request = await h.nextRequest();
    h.gate.decide(request.id, { kind: 'skip' });
    expect(await result).toMatchObject({ status: 'skipped', by: 'user' });
    expect(h.ran()).toEqual([]);
    expect(h.auditOf(request.id).at(-1)).toMatchObject({ outcome: 'skipped', approver: 'human' });
  });

  it('a scripted approver may decide synchronously inside the requested event', async () => {
    let harness: GateHarness | undefined;
    h = harness = createGateHarness({
      onEvent: (e) => {
        if (e.type === 'requested')
          harness?.gate.decide(
            e.request.id,
            (e.request.args as { path: string }).path === 'yes.txt'
              ? { kind: 'approve' }
              : { kind: 'reject', reason: 'scripted' },
          );
      },
    });
    expect(await h.call('write_file', { path: 'yes.txt', content: 'y' })).toMatchObject({
      status: 'executed',
    });
    expect(await h.call('write_file', { path: 'no.txt', content: 'n' })).toMatchObject({
      status: 'rejected',
      reason: 'scripted',
    });
    expect(h.read('yes.txt')).toBe('y');
    expect(h.read('no.txt')).toBeUndefined();
    expect(h.broker.pending()).toEqual([]);
  });

  it('any queued request may be decided, not only the head', async () => {
    h = createGateHarness();
    const first = h.call('execute_command', { command: 'npm run a' });
    const second = h.call('execute_command', { command: 'npm run b' });
    const [a, b] = await h.waitForPending(2);
    h.gate.decide(b?.id as string, { kind: 'approve' });
    expect(await second).toMatchObject({ status: 'executed' });
    expect(h.broker.pending().map((r) => r.id)).toEqual([a?.id]);
    h.gate.decide(a?.id as string, { kind: 'reject' });
    expect(await first).toMatchObject({ status: 'rejected' });
  });

  it('an unknown decision kind approves nothing', async () => {
    h = createGateHarness();
    const result = h.call('execute_command', { command: 'npm test' });
    const request = await h.nextRequest();
    for (const junk of [{ kind: 'Approve' }, { kind: 'approve_everything' }, {}, null]) {
      expect(h.gate.decide(request.id, junk as never)).toMatchObject({ ok: false });
    }
    expect(h.broker.pending()).toHaveLength(1);
    expect(h.ran()).toEqual([]);
    // Even straight at the broker, a kind that is not an approval never runs the call.
    h.broker.decide(request.id, { kind: 'approve_everything' } as never);
    expect(await result).toMatchObject({ status: 'error', reason: expect.stringMatching(/^gate_error: /) });
    expect(h.ran()).toEqual([]);
  });

  it('deciding an unknown or finished request is an error, not a crash', async () => {
    h = createGateHarness();
    expect(h.gate.decide('nope', { kind: 'approve' })).toMatchObject({ ok: false });
    const result = h.call('execute_command', { command: 'npm test' });
    const request = await h.nextRequest();
    h.gate.decide(request.id, { kind: 'approve' });
    await result;
    expect(h.gate.decide(request.id, { kind: 'approve' })).toMatchObject({ ok: false });
    expect(h.ran()).toHaveLength(1);
  });
});

describe('edit', () => {
  it('valid: the edited arguments run, and the audit keeps both', async () => {
    h = createGateHarness();
    const result = h.call('write_file', { path: 'src/a.txt', content: 'draft' });
    const request = await h.nextRequest();
    expect(
      h.gate.decide(request.id, { kind: 'edit', args: { path: 'src/a.txt', content: 'final' } }),
    ).toEqual({ ok: true });
    expect(await result).toMatchObject({ status: 'executed' });
    expect(h.read('src/a.txt')).toBe('final');
    const outcome = h.auditOf(request.id).at(-1);
    expect(outcome).toMatchObject({
      outcome: 'executed',
      approver: 'human',
      args: { content: 'draft' },
      editedArgs: { path: 'src/a.txt', content: 'final' },
    });
    expect(outcome?.argsHash).not.toBe(request.argsHash);
  });

  it('valid, to another file: that file is written (no false "file changed")', async () => {
    h = createGateHarness();
    h.write('src/b.txt', 'b was here');
    const result = h.call('write_file', { path: 'src/a.txt', content: 'x' });
    const request = await h.nextRequest();
    h.gate.decide(request.id, { kind: 'edit', args: { path: 'src/b.txt', content: 'x' } });
    expect(await result).toMatchObject({ status: 'executed' });
    expect(h.read('src/b.txt')).toBe('x');
    expect(h.read('src/a.txt')).toBeUndefined();
    expect(h.events.filter((e) => e.type === 'requested')).toHaveLength(1);
  });

  it('valid, given as JSON text (as a model would)', async () => {
    h = createGateHarness();
    const result = h.call('execute_command', { command: 'npm test' });
    const request = await h.nextRequest();
    h.gate.decide(request.id, { kind: 'edit', args: '{"command":"npm run test:unit"}' });
    expect(await result).toMatchObject({ status: 'executed' });
    expect(h.ran()).toEqual(['execute_command {"command":"npm run test:unit"}']);
  });

  it('invalid: the request stays pending with the error, nothing runs; a later decision still works', async () => {
    h = createGateHarness();
    const result = h.call('write_file', { path: 'src/a.txt', content: 'x' });
    const request = await h.nextRequest();
    const answer = h.gate.decide(request.id, { kind: 'edit', args: { path: 5, content: 'x' } });
    expect(answer).toMatchObject({ ok: false, error: expect.stringMatching(/path/) });
    expect(h.broker.pending()).toHaveLength(1);
    expect(h.broker.pending()[0]?.editError).toMatch(/path/);
    expect(h.events.at(-1)).toMatchObject({
      type: 'updated',
      request: { id: request.id, editError: expect.any(String) },
    });
    expect(h.gate.decide(request.id, { kind: 'edit', args: '{not json' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not valid JSON/),
    });
    expect(
      h.gate.decide(request.id, { kind: 'edit', args: { path: 'src/a.txt', content: 'x', extra: 1 } }),
    ).toMatchObject({ ok: false });
    expect(h.read('src/a.txt')).toBeUndefined();
    h.gate.decide(request.id, { kind: 'approve' });
    expect(await result).toMatchObject({ status: 'executed' });
    expect(h.read('src/a.txt')).toBe('x');
  });

  it.each([
    ['write_file', { path: 'a.txt', content: 'x' }, { path: '../escape.txt', content: 'x' }, 'path-fence'],
    ['write_file', { path: 'a.txt', content: 'x' }, { path: '/etc/escape.txt', content: 'x' }, 'path-fence'],
    [
      'write_file',
      { path: 'a.txt', content: 'x' },
      { path: 'a.txt', content: 'x'.repeat(5 * 1024 * 1024 + 1) },
      'size-cap',
    ],
    ['execute_command', { command: 'npm test' }, { command: 'rm -rf /' }, 'cmd-rm-root'],
    ['execute_command', { command: 'npm test' }, { command: 'npm test', cwd: '/' }, 'path-fence'],
  ])('%s edited past a hard guard → blocked, nothing runs', async (tool, args, edited, rule) => {
    h = createGateHarness();
    const result = h.call(tool, args);
    const request = await h.nextRequest();
    expect(h.gate.decide(request.id, { kind: 'edit', args: edited })).toEqual({ ok: true });
    expect(await result).toMatchObject({ status: 'blocked', rule, retry: false });
    expect(h.ran()).toEqual([]);
    expect(h.read('../escape.txt')).toBeUndefined();
    expect(h.auditOf(request.id).at(-1)).toMatchObject({ outcome: 'blocked', rule: expect.any(String) });
  });

  it('edited into something a deny rule forbids → blocked by that rule', async () => {
    h = createGateHarness({
      rules: [{ id: 'no-curl', tool: 'execute_command', when: { command: 'curl *' }, decision: 'deny' }],
    });
    const result = h.call('execute_command', { command: 'npm test' });
    h.gate.decide((await h.nextRequest()).id, { kind: 'edit', args: { command: 'curl example.com' } });
    expect(await result).toMatchObject({ status: 'blocked', rule: 'no-curl' });
    expect(h.ran()).toEqual([]);
  });
});

describe('cancellation', () => {
  it('cancel_task ends every pending request of that task as cancelled, and only those', async () => {
    h = createGateHarness();
    const a = h.call('write_file', { path: 'a.txt', content: 'a' }, { taskId: 'task-1' });
    const b = h.call('execute_command', { command: 'npm test' }, { taskId: 'task-1', agentId: 'sub' });
    const c = h.call('mcp__fake__delete', { id: '1' }, { taskId: 'task-2' });
    const pending = await h.waitForPending(3);
    const first = pending.find((r) => r.tool === 'write_file');
    const third = pending.find((r) => r.taskId === 'task-2');
    expect(h.gate.decide(first?.id as string, { kind: 'cancel_task' })).toEqual({ ok: true });
    for (const envelope of [await a, await b]) {
      expect(envelope).toMatchObject({
        status: 'cancelled',
        by: 'gate',
        reason: expect.stringMatching(/^task_cancelled: /),
      });
    }
    expect(h.broker.pending().map((r) => r.id)).toEqual([third?.id]);
    h.gate.decide(third?.id as string, { kind: 'approve', confirmHigh: true });
    expect(await c).toMatchObject({ status: 'executed' });
    expect(h.ranTools()).toEqual(['mcp__fake__delete']);
    expect(h.read('a.txt')).toBeUndefined();
  });

  it('an aborted caller signal cancels its pending request, and only that one', async () => {
    h = createGateHarness();
    const turn = new AbortController();
    const mine = h.call('write_file', { path: 'a.txt', content: 'a' }, { signal: turn.signal });
    const other = h.call('write_file', { path: 'b.txt', content: 'b' });
    await h.waitForPending(2);
    turn.abort();
    expect(await mine).toMatchObject({
      status: 'cancelled',
      reason: expect.stringMatching(/^task_cancelled: /),
    });
    expect(h.broker.pending()).toHaveLength(1);
    h.gate.decide(h.broker.pending()[0]?.id as string, { kind: 'approve' });
    expect(await other).toMatchObject({ status: 'executed' });
    expect(h.read('a.txt')).toBeUndefined();
  });

  it('a signal already aborted never queues a request', async () => {
    h = createGateHarness();
    const turn = new AbortController();
    turn.abort();
    expect(await h.call('execute_command', { command: 'npm test' }, { signal: turn.signal })).toMatchObject({
      status: 'cancelled',
    });
    expect(h.events.filter((e) => e.type === 'requested')).toEqual([]);
    expect(h.ran()).toEqual([]);
  });
});

describe('a rejected call asked again', () => {
  it('the same task is rejected without asking; another task asks again', async () => {
    h = createGateHarness();
    const call = { command: 'npm publish --dry-run' };
    const first = h.call('execute_command', call);
    h.gate.decide((await h.nextRequest()).id, { kind: 'reject', reason: 'not now' });
    expect(await first).toMatchObject({ status: 'rejected', by: 'user' });

    const again = await h.call('execute_command', { ...call });
    expect(again).toMatchObject({
      status: 'rejected',
      by: 'gate',
      retry: false,
      reason: expect.stringMatching(/^repeat_rejected/),
    });
    expect(h.events.filter((e) => e.type === 'requested')).toHaveLength(1);
    expect(h.lastOutcome('execute_command')).toMatchObject({ outcome: 'rejected', approver: 'none' });

    const otherTask = h.call('execute_command', call, { taskId: 'task-2' });
    const request = await h.nextRequest();
    expect(request.taskId).toBe('task-2');
    h.gate.decide(request.id, { kind: 'approve', confirmHigh: true });
    expect(await otherTask).toMatchObject({ status: 'executed' });

    const changed = h.call('execute_command', { command: 'npm publish --dry-run --tag next' });
    expect((await h.nextRequest()).taskId).toBe('task-1');
    h.gate.decide(h.broker.pending()[0]?.id as string, { kind: 'skip' });
    expect(await changed).toMatchObject({ status: 'skipped' });
  });

  it('argument order does not matter for "the same call"', async () => {
    h = createGateHarness();
    const first = h.call('write_file', { path: 'a.txt', content: 'x' });
    h.gate.decide((await h.nextRequest()).id, { kind: 'reject' });
    await first;
    expect(await h.call('write_file', { content: 'x', path: 'a.txt' })).toMatchObject({
      status: 'rejected',
      by: 'gate',
    });
  });

  it('skip is not a rejection: the same call asks again', async () => {
    h = createGateHarness();
    const first = h.call('execute_command', { command: 'npm test' });
    h.gate.decide((await h.nextRequest()).id, { kind: 'skip' });
    await first;
    void h.call('execute_command', { command: 'npm test' });
    expect((await h.nextRequest()).tool).toBe('execute_command');
  });
});

describe('interactive tools', () => {
  it('ask_user gets the answer; propose_plan runs with the edited steps', async () => {
    h = createGateHarness({ mode: 'plan' });
    const question = h.call('ask_user', { question: 'Which port?', options: ['3000', '8080'] });
    const q = await h.nextRequest();
    expect(q.preview).toEqual({ kind: 'question', question: 'Which port?', options: ['3000', '8080'] });
    expect(q.grantOptions).toEqual([]);
    h.gate.decide(q.id, { kind: 'answer', text: '8080' });
    expect(await question).toMatchObject({ status: 'executed', output: '8080' });

    const plan = h.call('propose_plan', { title: 'Fix', steps: ['read', 'write'] });
    const p = await h.nextRequest();
    expect(p.preview).toEqual({ kind: 'plan', title: 'Fix', steps: ['read', 'write'] });
    h.gate.decide(p.id, { kind: 'approve_plan', steps: ['read', 'test', 'write'] });
    expect(await plan).toMatchObject({ status: 'executed', output: 'plan accepted: read / test / write' });
    expect(h.auditOf(p.id).at(-1)).toMatchObject({ editedArgs: { steps: ['read', 'test', 'write'] } });
  });

  it('an answer or a plan approval is refused for the wrong tool or invalid steps, and nothing runs', async () => {
    h = createGateHarness();
    const write = h.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await h.nextRequest();
    expect(h.gate.decide(request.id, { kind: 'answer', text: 'yes' })).toMatchObject({ ok: false });
    expect(h.gate.decide(request.id, { kind: 'approve_plan', steps: ['x'] })).toMatchObject({ ok: false });
    expect(h.broker.pending()).toHaveLength(1);
    expect(h.read('a.txt')).toBeUndefined();
    h.gate.decide(request.id, { kind: 'skip' });
    await write;

    const plan = h.call('propose_plan', { steps: ['a'] });
    const p = await h.nextRequest();
    expect(h.gate.decide(p.id, { kind: 'approve_plan', steps: [] })).toMatchObject({ ok: false });
    expect(h.gate.decide(p.id, { kind: 'approve_plan', steps: ['a'] })).toEqual({ ok: true });
    expect(await plan).toMatchObject({ status: 'executed' });
    expect(h.auditOf(p.id).at(-1)?.editedArgs).toBeUndefined();
  });
});
