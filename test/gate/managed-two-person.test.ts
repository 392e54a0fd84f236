/**
 * The gate with a managed policy and two-person cards: a managed ask reaches a person on its own card
 * whatever a grant, approve-all or auto mode would say; a two-person card waits after its first
 * approval (audited `1 of 2`), refuses the same identity and the requester as second, and runs with
 * both recorded once another identity approves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../src/gate/broker';
import type { ApprovalRequest, DecidedBy } from '../../src/protocol';
import { createGateHarness, type GateHarness, type HarnessOptions } from '../helpers/gate-harness';

let h: GateHarness | undefined;
afterEach(() => h?.cleanup());
const harness = (o: HarnessOptions = {}) => {
  h = createGateHarness(o);
  return h;
};

const me: DecidedBy = { channel: 'tui', user: 'alice', host: 'box' };
const aliceKey: DecidedBy = { channel: 'cli', user: 'alice', host: 'box', keyId: 'a'.repeat(16) };
const bob: DecidedBy = { channel: 'cli', user: 'bob', host: 'lap', keyId: 'b'.repeat(16), keyName: 'bob' };
const carol: DecidedBy = {
  channel: 'cli',
  user: 'carol',
  host: 'c',
  keyId: 'c'.repeat(16),
  keyName: 'carol',
};

describe('a managed ask', () => {
  const managedAsk = {
    id: 'ask-writes',
    tool: 'write_file',
    decision: 'ask' as const,
    source: 'managed' as const,
  };

  it('no session grant covers it, and its card offers no approve-all', async () => {
    const g = harness({ rules: [managedAsk] });
    // A grant for every write_file call, made on an earlier card the builtin policy asked for.
    g.grants.add({
      tool: 'write_file',
      match: { kind: 'tool' },
      agents: { kind: 'all' },
      label: 'every write_file call, all agents',
      ruleText: '',
    });
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await g.nextRequest();
    expect(request.rule).toEqual({ id: 'ask-writes', source: 'managed' });
    expect(request.grantOptions).toEqual([]);
    g.gate.decide(request.id, { kind: 'approve' }, me);
    expect((await result).status).toBe('executed');
    expect(g.lastOutcome('write_file')).toMatchObject({ approver: 'human', rule: 'ask-writes' });
  });

  it('without the managed rule the same grant lets it run unasked (the test can fail)', async () => {
    const g = harness();
    g.grants.add({
      tool: 'write_file',
      match: { kind: 'tool' },
      agents: { kind: 'all' },
      label: 'every write_file call, all agents',
      ruleText: '',
    });
    expect((await g.call('write_file', { path: 'a.txt', content: 'x' })).status).toBe('executed');
    expect(g.lastOutcome('write_file')?.approver).toBe('grant');
  });

  it('auto and auto-edit modes still ask, and a user allow matching the same call does not stand in for it', async () => {
    const userAsk = { id: 'mine', tool: 'write_file', decision: 'ask' as const, source: 'user' as const };
    const userAllow = { id: 'yes', tool: 'write_file', decision: 'allow' as const, source: 'user' as const };
    for (const mode of ['auto', 'auto-edit'] as const) {
      const g = harness({ mode, rules: [userAllow, userAsk, managedAsk] });
      const result = g.call('write_file', { path: 'a.txt', content: 'x' });
      const request = await g.nextRequest();
      // Of two asks the managed one decides (no grant may cover it), whatever the order rules arrive in.
      expect(request.rule).toEqual({ id: 'ask-writes', source: 'managed' });
      expect(request.grantOptions).toEqual([]);
      g.gate.decide(request.id, { kind: 'reject', reason: 'no' }, me);
      expect((await result).status).toBe('rejected');
      g.cleanup();
    }
  });

  it('approve-all given on another card does not drain a managed-ask card waiting beside it', async () => {
    const g = harness({ rules: [{ ...managedAsk, when: { path: 'locked/**' } }] });
    const free = g.call('write_file', { path: 'open/a.txt', content: 'x' });
    const locked = g.call('write_file', { path: 'locked/b.txt', content: 'y' });
    const [first, second] = [await g.nextRequest(), await g.nextRequest()];
    const card = first.rule.source === 'managed' ? second : first;
    const scope = card.grantOptions.find((s) => s.match.kind === 'tool' && s.agents.kind === 'all');
    expect(scope).toBeDefined();
    g.gate.decide(card.id, { kind: 'approve_all', scope: scope as NonNullable<typeof scope> }, me);
    expect((await free).status).toBe('executed');
    expect(g.broker.pending().map((r) => r.rule.id)).toEqual(['ask-writes']);
    g.gate.decide(g.broker.pending()[0]?.id ?? '', { kind: 'skip' }, me);
    expect((await locked).status).toBe('skipped');
    expect(g.read('locked/b.txt')).toBeUndefined();
  });
});

describe('a card that needs two people', () => {
  const two = (o: HarnessOptions = {}) =>
    harness({ twoPerson: { tools: ['write_file'] }, requesterKeyId: aliceKey.keyId ?? '', ...o });

  it('the first approval is recorded and the card waits; the second, from another identity, runs it with both audited', async () => {
    const g = two();
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await g.nextRequest();
    expect(request.twoPerson).toEqual({ approvedBy: [] });
    expect(request.grantOptions).toEqual([]);
    expect(g.gate.decide(request.id, { kind: 'approve' }, me)).toEqual({ ok: true, waiting: true });
    const updated = g.broker.pending()[0];
    expect(updated?.twoPerson?.approvedBy).toEqual([me]);
    expect(updated?.revision).toBe(1);
    expect(g.read('a.txt')).toBeUndefined();
    expect(g.auditOf(request.id).find((r) => r.partial === '1 of 2')).toMatchObject({
      phase: 'requested',
      approver: 'human',
      decidedBy: me,
    });
    expect(g.gate.decide(request.id, { kind: 'approve' }, bob)).toEqual({ ok: true });
    expect((await result).status).toBe('executed');
    expect(g.read('a.txt')).toBe('x');
    const outcome = g.lastOutcome('write_file');
    expect(outcome).toMatchObject({ approver: 'human', decidedBy: me, secondBy: bob });
  });

  it('the same identity twice does not count: at the keyboard, with your own key, or one registered key twice', async () => {
    const g = two();
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await g.nextRequest();
    g.gate.decide(request.id, { kind: 'approve' }, me);
    for (const by of [me, aliceKey])
      expect(g.gate.decide(request.id, { kind: 'approve' }, by)).toMatchObject({
        ok: false,
        code: 'same_identity',
      });
    g.gate.decide(request.id, { kind: 'reject', reason: 'changed my mind' }, me);
    expect((await result).status).toBe('rejected');

    const again = g.call('write_file', { path: 'b.txt', content: 'y' });
    const card = await g.nextRequest();
    g.gate.decide(card.id, { kind: 'approve' }, bob);
    expect(g.gate.decide(card.id, { kind: 'approve' }, bob)).toMatchObject({
      ok: false,
      code: 'same_identity',
    });
    expect(g.read('b.txt')).toBeUndefined();
    g.gate.decide(card.id, { kind: 'approve' }, carol);
    expect((await again).status).toBe('executed');
    expect(g.lastOutcome('write_file')).toMatchObject({ decidedBy: bob, secondBy: carol });
  });

  it('the requester may be the first, never the second', async () => {
    const g = two();
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await g.nextRequest();
    g.gate.decide(request.id, { kind: 'approve' }, bob);
    for (const by of [me, aliceKey, { channel: 'hook', hook: 'mine' } as DecidedBy])
      expect(g.gate.decide(request.id, { kind: 'approve' }, by)).toMatchObject({
        ok: false,
        code: 'self_approval',
      });
    expect(g.read('a.txt')).toBeUndefined();
    g.gate.decide(request.id, { kind: 'skip' }, me);
    expect((await result).status).toBe('skipped');
  });

  it('a reject from the first approver, or from anyone, ends it; approve-all and a direct edit are refused', async () => {
    const g = two();
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await g.nextRequest();
    expect(
      g.gate.decide(request.id, { kind: 'edit', args: { path: 'a.txt', content: 'z' } }, me),
    ).toMatchObject({
      ok: false,
      code: 'two_person',
    });
    g.gate.decide(request.id, { kind: 'approve' }, me);
    g.gate.decide(request.id, { kind: 'reject', reason: 'no' }, bob);
    expect((await result).status).toBe('rejected');
    expect(g.read('a.txt')).toBeUndefined();
  });

  it('an edit reviewed on the card needs both approvals again, for the edited call', async () => {
    const g = two();
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await g.nextRequest();
    g.gate.decide(request.id, { kind: 'approve' }, bob);
    g.gate.decide(request.id, { kind: 'edit', args: { path: 'a.txt', content: 'edited' }, review: true }, me);
    const staged = await g.until(() => (g.broker.pending()[0]?.edited ? g.broker.pending()[0] : undefined));
    expect(staged.twoPerson).toEqual({ approvedBy: [] });
    expect(g.gate.decide(request.id, { kind: 'approve' }, me)).toEqual({ ok: true, waiting: true });
    g.gate.decide(request.id, { kind: 'approve' }, bob);
    expect((await result).status).toBe('executed');
    expect(g.read('a.txt')).toBe('edited');
  });

  it('a high-risk card still needs its confirmation for each approval', async () => {
    const g = two({ twoPerson: { risk: ['high'] } });
    const result = g.call('write_file', { path: '.git/x', content: 'x' });
    const request = await g.nextRequest();
    expect(request.risk.level).toBe('high');
    expect(g.broker.decide(request.id, { kind: 'approve' }, me).ok).toBe(false);
    expect(g.broker.decide(request.id, { kind: 'approve', confirmHigh: true }, me)).toEqual({
      ok: true,
      waiting: true,
    });
    expect(g.broker.decide(request.id, { kind: 'approve' }, bob).ok).toBe(false);
    expect(g.broker.decide(request.id, { kind: 'approve', confirmHigh: true }, bob)).toEqual({ ok: true });
    expect((await result).status).toBe('executed');
  });

  it('the card still expires like any card, its first approval given or not', async () => {
    const g = two({ timeoutMs: 1000 });
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await g.nextRequest();
    g.gate.decide(request.id, { kind: 'approve' }, me);
    g.clock.advance(2000);
    expect(g.gate.decide(request.id, { kind: 'approve' }, bob).ok).toBe(false);
    expect((await result).status).not.toBe('executed');
    expect(g.read('a.txt')).toBeUndefined();
  });

  it('no grant covers a call that needs two people', async () => {
    const g = two();
    g.grants.add({
      tool: 'write_file',
      match: { kind: 'tool' },
      agents: { kind: 'all' },
      label: 'every write_file call, all agents',
      ruleText: '',
    });
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await g.nextRequest();
    expect(request.twoPerson).toBeDefined();
    g.gate.decide(request.id, { kind: 'skip' }, me);
    expect((await result).status).toBe('skipped');
  });

  it('a card the rule does not name is a one-person card as before', async () => {
    const g = two({ twoPerson: { rules: ['some-other-rule'], risk: ['high'] } });
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await g.nextRequest();
    expect(request.twoPerson).toBeUndefined();
    g.gate.decide(request.id, { kind: 'approve' }, me);
    expect((await result).status).toBe('executed');
  });

  it('the audit line that could not be written makes the first approval not count', async () => {
    let failPartial = false;
    const records: unknown[] = [];
    const g = two({
      audit: {
        append: (r) => {
          if (failPartial && r.partial) return { ok: false, error: 'disk full' };
          records.push(r);
          return { ok: true };
        },
      },
    });
    const result = g.call('write_file', { path: 'a.txt', content: 'x' });
    const request = await g.nextRequest();
    failPartial = true;
    expect(g.gate.decide(request.id, { kind: 'approve' }, me)).toMatchObject({
      ok: false,
      code: 'audit_unavailable',
    });
    expect(g.broker.pending()[0]?.twoPerson?.approvedBy).toEqual([]);
    g.gate.decide(request.id, { kind: 'skip' }, me);
    expect((await result).status).toBe('skipped');
  });
});

describe('a two-person card nobody is there to ask (a headless run)', () => {
  const card = (): ApprovalRequest => ({
    id: 'req-1',
    agentId: 'main',
    agentName: 'main',
    taskId: 'task-1',
    tool: 'write_file',
    args: { path: 'a.txt' },
    argsHash: 'h',
    risk: { level: 'medium', reasons: [] },
    rule: { id: 'default-ask-write_file', source: 'builtin' },
    explanation: 'asks',
    preview: { kind: 'json' },
    reversible: true,
    createdAt: new Date().toISOString(),
    grantOptions: [],
    twoPerson: { approvedBy: [] },
  });
  const answer = (by: DecidedBy, said: unknown[]) => ({
    decision: { kind: 'approve' } as const,
    by,
    done: (result: unknown) => said.push(result),
  });

  it('two answers given elsewhere settle it; one leaves nobody to give the second (no_approver)', async () => {
    const said: unknown[] = [];
    const both = new ApprovalBroker({
      timeoutMs: 60_000,
      onEvent: () => {},
      answerFor: () => [answer(aliceKey, said), answer(bob, said)],
      requesterKeyId: () => aliceKey.keyId,
    });
    const partial: DecidedBy[] = [];
    const outcome = await both.ask(
      card(),
      () => ({ kind: 'invalid', error: 'no edits' }),
      () => ({ ok: true }),
      (_, by) => {
        partial.push(by);
        return { ok: true };
      },
    );
    expect(outcome).toMatchObject({ kind: 'decided', by: aliceKey, secondBy: bob });
    expect(partial).toEqual([aliceKey]);
    expect(said).toEqual([{ ok: true, waiting: true }, { ok: true }]);

    const one = new ApprovalBroker({
      timeoutMs: 60_000,
      onEvent: () => {},
      answerFor: () => [answer(aliceKey, [])],
      requesterKeyId: () => aliceKey.keyId,
    });
    const alone = await one.ask(card(), () => ({ kind: 'invalid', error: 'no edits' }));
    expect(alone).toMatchObject({ kind: 'failed', code: 'no_approver' });
    expect(alone.kind === 'failed' && alone.reason).toContain('second person');
  });
});
