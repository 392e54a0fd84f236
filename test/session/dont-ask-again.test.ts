/**
 * "Don't ask again": `decide` with an approve-all scope and `save` approves the call and appends the
 * rule the card offered to the file picked; the next call like it runs without a card. In an untrusted
 * project a rule saved to its file stays held back (and the repository's own allow rules with it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GrantScope } from '../../src/protocol';
import { type SessionHarness, startSession } from '../helpers/session-harness';

// No sandbox: every command asks (sandboxed, a read-only echo would run unasked).
const off = { session: { sandbox: 'off' as const } };

const call = (command: string) => ({ toolCalls: [{ name: 'execute_command', args: { command } }] });

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const allAgents = (options: GrantScope[]) =>
  options.find((o) => o.match.kind === 'command_prefix' && o.agents.kind === 'all') as GrantScope;

const notices = (s: SessionHarness) =>
  s.events.flatMap((e) => (e.type === 'notice' ? [e.text] : [])).join('\n');

describe("don't ask again", () => {
  it('saves the exact rule to your policy file; the next call like it does not ask', async () => {
    h = await startSession([call('echo hi'), call('echo hi there'), { text: 'done' }], off);
    const turn = h.session.client.send({ type: 'submit', text: 'go' });
    void turn;
    const first = await h.nextRequest();
    const scope = allAgents(first.grantOptions);
    h.session.client.send({
      type: 'decide',
      id: first.id,
      decision: { kind: 'approve_all', scope },
      save: 'user',
    });
    const file = join(h.home, 'policy.json');
    await expect
      .poll(() => existsSync(file) && readFileSync(file, 'utf8'), { timeout: 10_000 })
      .toContain('echo hi *');
    expect(JSON.parse(readFileSync(file, 'utf8')).rules).toEqual([JSON.parse(scope.ruleText)]);
    await expect
      .poll(() => notices(h as SessionHarness), { timeout: 10_000 })
      .toContain('will not ask again');
    await expect
      .poll(
        () =>
          h?.session.client.snapshot().transcript.some((e) => e.kind === 'assistant' && e.text === 'done'),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    // The second echo ran without a card.
    expect(h.session.client.snapshot().pending).toEqual([]);
    const tools = h.session.client.snapshot().transcript.filter((e) => e.kind === 'tool');
    expect(tools.map((t) => (t.kind === 'tool' ? t.status : ''))).toEqual(['executed', 'executed']);
    // What decides now is the saved rule itself, not only this session's grant.
    h.session.client.send({ type: 'test_policy', command: 'echo hi again' });
    await expect.poll(() => notices(h as SessionHarness)).toContain(`user rule user#1 in ${file}`);
  });

  it('refuses a scope the card did not offer: nothing is approved or saved', async () => {
    h = await startSession([call('echo one'), { text: 'done' }], off);
    h.session.client.send({ type: 'submit', text: 'go' });
    const first = await h.nextRequest();
    const forged: GrantScope = {
      tool: '*',
      match: { kind: 'tool' },
      agents: { kind: 'all' },
      label: 'everything',
      ruleText: JSON.stringify({ tool: '*', decision: 'allow' }),
    };
    h.session.client.send({
      type: 'decide',
      id: first.id,
      decision: { kind: 'approve_all', scope: forged },
      save: 'user',
    });
    await expect.poll(() => notices(h as SessionHarness)).toContain('nothing was approved or saved');
    expect(existsSync(join(h.home, 'policy.json'))).toBe(false);
    expect(h.session.client.snapshot().pending.map((r) => r.id)).toEqual([first.id]);
  });

  it("in an untrusted project, the rule saved to its file is held back, and so are the repository's", async () => {
    h = await startSession([call('echo one'), call('make all'), { text: 'done' }], {
      ...off,
      files: {
        '.warden/policy.json': JSON.stringify({
          rules: [{ tool: 'execute_command', when: { command: 'make *' }, decision: 'allow' }],
        }),
      },
    });
    expect(h.session.client.snapshot().trust?.status).toBe('untrusted');
    h.session.client.send({ type: 'submit', text: 'go' });
    const first = await h.nextRequest();
    h.session.client.send({
      type: 'decide',
      id: first.id,
      decision: { kind: 'approve_all', scope: allAgents(first.grantOptions) },
      save: 'project',
    });
    await expect.poll(() => notices(h as SessionHarness), { timeout: 10_000 }).toContain('held back');
    const saved = JSON.parse(readFileSync(join(h.root, '.warden', 'policy.json'), 'utf8')).rules;
    expect(saved).toHaveLength(2);
    // `make all` still asks: nothing of the untrusted file loosened the gate.
    const second = await h.nextRequest();
    expect(second.preview.kind === 'command' && second.preview.command).toBe('make all');
    expect(h.session.client.snapshot().trust?.status).toBe('untrusted');
    h.decide(second.id, { kind: 'reject' });
  });
});
