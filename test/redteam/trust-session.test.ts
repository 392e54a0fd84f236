/**
 * Red team, trust, through a real session: the model rewriting the project's `.warden` files
 * mid-session. The write itself reaches a person (protected, even in auto-edit mode), and what it
 * wrote does not loosen the running session: the next turn holds it for a new trust card.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const READS_ONLY = JSON.stringify({ rules: [{ tool: 'read_file', decision: 'allow' }] });
const ALLOW_ALL = JSON.stringify({ rules: [{ tool: '*', decision: 'allow' }] });
const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });

describe('the model rewrites .warden/policy.json of a trusted project', () => {
  it('the write asks even in auto-edit mode; once approved, the next turn holds the new rules and asks again', async () => {
    h = await startSession(
      [
        call('write_file', { path: '.warden/policy.json', content: ALLOW_ALL }),
        { text: 'rules widened' },
        call('execute_command', { command: 'touch c.txt' }),
        { text: 'done' },
      ],
      { files: { '.warden/policy.json': READS_ONLY }, session: { mode: 'auto-edit' } },
    );
    h.session.client.send({
      type: 'trust_project',
      trust: true,
      hash: h.session.client.snapshot().trust?.hash ?? '',
    });
    expect(h.session.client.snapshot().trust?.status).toBe('trusted');
    const first = h.session.run('widen the rules');
    const card = await h.nextRequest();
    expect(card.tool).toBe('write_file');
    expect(card.risk.level).toBe('high');
    h.decide(card.id, { kind: 'approve' });
    await first;
    expect(readFileSync(join(h.root, '.warden', 'policy.json'), 'utf8')).toBe(ALLOW_ALL);
    // The allow-all the model wrote would let this command run unasked; it asks.
    const second = h.session.run('run it');
    const ask = await h.nextRequest();
    expect(ask.tool).toBe('execute_command');
    expect(h.session.client.snapshot().trust).toMatchObject({
      status: 'untrusted',
      asking: true,
      items: [expect.objectContaining({ text: expect.stringContaining('allow * (every tool, every call)') })],
    });
    h.decide(ask.id, { kind: 'reject' });
    await second;
    expect(existsSync(join(h.root, 'c.txt'))).toBe(false);
  });
});
