import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent, Suggestion } from '../../src/protocol';
import type { FakeStep } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';
import { auditLines } from '../helpers/audit-lines';

// Issue 14 §5 through the real core: a session, the real gate and policy, the fake model server.

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const cmd = (command: string): FakeStep => ({ toolCalls: [{ name: 'execute_command', args: { command } }] });
const write = (path: string, content = 'x\n'): FakeStep => ({
  toolCalls: [{ name: 'write_file', args: { path, content } }],
});
/** npm scripts that succeed at once: failing results in a row would make the agent escalate instead. */
const NPM = { files: { 'package.json': '{"scripts":{"test":"true","lint":"true"}}\n' } };
const offers = (events: CoreEvent[]): Suggestion[] =>
  events.flatMap((e) => (e.type === 'suggestion_offered' ? [e.suggestion] : []));
const resolved = (harness: SessionHarness, id: string) =>
  new Promise<CoreEvent>((resolve) => {
    const found = () => harness.events.find((e) => e.type === 'suggestion_resolved' && e.id === id);
    const now = found();
    if (now) return resolve(now);
    const stop = harness.session.client.subscribe(() => {
      const event = found();
      if (event) {
        stop();
        resolve(event);
      }
    });
  });

/** Runs one prompt whose model makes `steps` calls, approving each with `decision` as it comes. */
async function approveEach(harness: SessionHarness, steps: FakeStep[], n: number) {
  const run = harness.session.run('go');
  for (let i = 0; i < n; i++) {
    const request = await harness.nextRequest();
    // A person approving a high-risk card confirms it, as the drawer's second y does.
    harness.decide(
      request.id,
      request.risk.level === 'high' ? { kind: 'approve', confirmHigh: true } : { kind: 'approve' },
    );
  }
  await run;
  void steps;
}

describe('rule suggestions after repeated approvals (issue 14 §5)', () => {
  it('offers once after 3 approvals of the same plain command; accepted, it writes the shown JSON and the next call runs by the rule', async () => {
    h = await startSession(
      [
        cmd('npm test'),
        cmd('npm test'),
        cmd('npm test'),
        cmd('npm test'),
        { text: 'done' },
        cmd('npm test'),
        { text: 'done again' },
      ],
      NPM,
    );
    await approveEach(h, [], 4);
    const offered = offers(h.events);
    expect(offered).toHaveLength(1);
    const offer = offered[0];
    if (offer?.kind !== 'rule') throw new Error('expected a rule offer');
    expect(offer.count).toBe(3);
    expect(JSON.parse(offer.ruleText)).toEqual({
      tool: 'execute_command',
      when: { command: 'npm test' },
      decision: 'allow',
    });
    expect(offer.files.user).toBe(join(h.home, 'policy.json'));
    expect(h.session.client.snapshot().suggestions?.map((s) => s.id)).toEqual([offer.id]);

    h.session.client.send({ type: 'accept_suggestion', id: offer.id, target: 'user' });
    expect(await resolved(h, offer.id)).toMatchObject({ outcome: 'accepted', file: offer.files.user });
    const saved = JSON.parse(readFileSync(offer.files.user, 'utf8')).rules;
    expect(saved.at(-1)).toEqual(JSON.parse(offer.ruleText));
    expect(h.session.client.snapshot().suggestions).toBeUndefined();
    // Audited: the decision line before the write, the outcome after, as the person's own act.
    const lines = auditLines(h.home).filter((r) => r.tool === 'warden.save_rule');
    expect(lines.map((r) => r.phase)).toEqual(['decision', 'outcome']);
    expect(lines[1]).toMatchObject({ approver: 'human', origin: 'person', outcome: 'executed' });

    const pendingBefore = h.events.filter((e) => e.type === 'approval_requested').length;
    await h.session.run('again');
    expect(h.events.filter((e) => e.type === 'approval_requested').length).toBe(pendingBefore);
    const last = auditLines(h.home)
      .filter((r) => r.tool === 'execute_command' && r.phase === 'decision')
      .at(-1);
    expect(last).toMatchObject({ approver: 'rule', decision: 'allow' });
  });

  it('declined: never offered again this session, and nothing is written', async () => {
    h = await startSession([...Array.from({ length: 6 }, () => cmd('npm run lint')), { text: 'done' }], NPM);
    const run = h.session.run('go');
    for (let i = 0; i < 3; i++) h.decide((await h.nextRequest()).id, { kind: 'approve' });
    const offer = await new Promise<Suggestion>((resolve) => {
      const check = () => offers(h?.events ?? [])[0];
      const now = check();
      if (now) return resolve(now);
      const stop = h?.session.client.subscribe(() => {
        const s = check();
        if (s) {
          stop?.();
          resolve(s);
        }
      });
    });
    h.session.client.send({ type: 'decline_suggestion', id: offer.id });
    expect(await resolved(h, offer.id)).toMatchObject({ outcome: 'declined' });
    for (let i = 0; i < 3; i++) h.decide((await h.nextRequest()).id, { kind: 'approve' });
    await run;
    expect(offers(h.events)).toHaveLength(1);
    expect(existsSync(join(h.home, 'policy.json'))).toBe(false);
    expect(existsSync(join(h.root, '.warden', 'policy.json'))).toBe(false);
  });

  it.each([
    ['high risk', 'rm -rf build'],
    ['a compound command', 'npm test && npm run lint'],
    ['an assignment (not plain)', 'FOO=1 npm test'],
    ['a command that writes a file', 'npm test > out.txt'],
  ])('never offers for %s', async (_what, command) => {
    h = await startSession([cmd(command), cmd(command), cmd(command), cmd(command), { text: 'done' }], NPM);
    await approveEach(h, [], 4);
    expect(offers(h.events)).toEqual([]);
  });

  it('offers a folder rule after 5 approved writes under the same folder, to the project file', async () => {
    h = await startSession([
      ...['a', 'b', 'c', 'd'].map((n) => write(`docs/${n}.md`)),
      write('docs/e.md'),
      { text: 'done' },
    ]);
    await approveEach(h, [], 5);
    const [offer, more] = offers(h.events);
    expect(more).toBeUndefined();
    if (offer?.kind !== 'rule') throw new Error('expected a rule offer');
    expect(offer.count).toBe(5);
    expect(JSON.parse(offer.ruleText)).toEqual({
      tool: 'write_file',
      when: { path: 'docs/**' },
      decision: 'allow',
    });
    h.session.client.send({ type: 'accept_suggestion', id: offer.id, target: 'project' });
    expect(await resolved(h, offer.id)).toMatchObject({ outcome: 'accepted' });
    const saved = JSON.parse(readFileSync(join(h.root, '.warden', 'policy.json'), 'utf8'));
    expect(saved).toEqual({ rules: [JSON.parse(offer.ruleText)] });
  });

  it('writes under different folders or at the top level make no offer', async () => {
    h = await startSession([
      ...['a', 'b', 'c', 'd', 'e'].map((n) => write(`${n}.md`)),
      ...['a', 'b'].map((n) => write(`x${n}/f.md`)),
      { text: 'done' },
    ]);
    await approveEach(h, [], 7);
    expect(offers(h.events)).toEqual([]);
  });

  it('a command naming hosts makes no offer: a rule would not cover the hosts, so it would still ask', async () => {
    const named: FakeStep = {
      toolCalls: [
        { name: 'execute_command', args: { command: 'npm test', network: ['registry.npmjs.org'] } },
      ],
    };
    h = await startSession([named, named, named, named, { text: 'done' }], NPM);
    await approveEach(h, [], 4);
    expect(offers(h.events)).toEqual([]);
  });
});

describe('preferences after repeated edits (issue 14 §5)', () => {
  const editTwice = async (harness: SessionHarness) => {
    const run = harness.session.run('go');
    for (const name of ['a', 'b']) {
      const request = await harness.nextRequest();
      harness.decide(request.id, { kind: 'edit', args: { path: `src/${name}.ts`, content: 'x\n' } });
    }
    await run;
  };

  it('offers the exact line after 2 identical edits, and writes exactly it to AGENTS.md on consent', async () => {
    h = await startSession([write('tmp/a.ts'), write('tmp/b.ts'), { text: 'done' }], {
      files: { 'AGENTS.md': '# Project\n\nBe brief.\n' },
    });
    await editTwice(h);
    const [offer, more] = offers(h.events);
    expect(more).toBeUndefined();
    if (offer?.kind !== 'preference') throw new Error('expected a preference offer');
    expect(offer.file).toBe(join(h.root, 'AGENTS.md'));
    expect(offer.line).toBe(
      '- In `write_file` calls, write `src/` where you would write `tmp/` in `path` (the person corrected this 2 times).',
    );
    // Shown first: nothing written before consent.
    expect(readFileSync(join(h.root, 'AGENTS.md'), 'utf8')).toBe('# Project\n\nBe brief.\n');
    h.session.client.send({ type: 'accept_suggestion', id: offer.id });
    expect(await resolved(h, offer.id)).toMatchObject({ outcome: 'accepted' });
    const after = readFileSync(join(h.root, 'AGENTS.md'), 'utf8');
    expect(after.startsWith('# Project\n\nBe brief.\n\n## Preferences')).toBe(true);
    expect(after.endsWith(`\n${offer.line}\n`)).toBe(true);
    expect(after.split('\n').filter((l) => l.startsWith('- '))).toEqual([offer.line]);
  });

  it('declined: AGENTS.md is never created', async () => {
    h = await startSession([write('tmp/a.ts'), write('tmp/b.ts'), { text: 'done' }]);
    await editTwice(h);
    const [offer] = offers(h.events);
    if (!offer) throw new Error('expected an offer');
    h.session.client.send({ type: 'decline_suggestion', id: offer.id });
    await resolved(h, offer.id);
    expect(existsSync(join(h.root, 'AGENTS.md'))).toBe(false);
  });

  it('one edit, or two different edits, make no offer', async () => {
    h = await startSession([write('tmp/a.ts'), write('lib/b.ts'), { text: 'done' }]);
    const run = h.session.run('go');
    const first = await h.nextRequest();
    h.decide(first.id, { kind: 'edit', args: { path: 'src/a.ts', content: 'x\n' } });
    const second = await h.nextRequest();
    h.decide(second.id, { kind: 'edit', args: { path: 'app/b.ts', content: 'x\n' } });
    await run;
    expect(offers(h.events)).toEqual([]);
  });
});

describe("the task's rejections reach every agent (issue 14 §5)", () => {
  it("a sub-agent's system prompt carries the person's rejection and reason", async () => {
    h = await startSession([
      cmd('rm -rf node_modules'),
      { toolCalls: [{ name: 'spawn_agents', args: { agents: [{ name: 'cleaner', task: 'clean up' }] } }] },
      { text: 'cleaner done' },
      { text: 'all done' },
    ]);
    const run = h.session.run('clean');
    const request = await h.nextRequest();
    h.decide(request.id, { kind: 'reject', reason: 'never delete node_modules; use npm ci' });
    await run;
    const sub = h.fake.requests[2]?.body.messages ?? [];
    expect(sub[1]?.content).toBe('clean up');
    const system = String(sub[0]?.content ?? '');
    expect(system).toContain('the person rejected "execute_command rm -rf node_modules"');
    expect(system).toContain('"never delete node_modules; use npm ci"');
    // The main agent's own next request carries it too (its system prompt was rewritten).
    expect(String(h.fake.requests[1]?.body.messages[0]?.content)).toContain('never delete node_modules');
  });

  it('nothing is added while nothing was rejected', async () => {
    h = await startSession([{ text: 'hi' }]);
    await h.session.run('hello');
    expect(String(h.fake.requests[0]?.body.messages[0]?.content)).not.toContain('Rejected in this session');
  });
});
