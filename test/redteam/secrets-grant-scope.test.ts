/**
 * Red team: approve-all scopes are built from a command's first words, and the request carries
 * them (tokens, label, rule text) into the session file, and a saved grant into policy.json. Each
 * token was redacted alone, where `-pS3cret` says nothing without `mysql` before it: the password
 * was kept. A prefix whose words hold a secret is not offered; approve once still is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { redactedRecordJson } from '../../src/session/saved/record-redact';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

let h: GateHarness;
afterEach(() => h?.cleanup());

const SECRET = 'S3cretPw9x';

describe('grant scopes never carry a secret', () => {
  it.each([
    [`mysql -p${SECRET} app`],
    [`curl https://u:${SECRET}@example.com/x`],
    [`redis-cli -a ${SECRET} ping`],
  ])('%s: no offered scope holds it, and the saved request line neither', async (command) => {
    h = createGateHarness();
    const result = h.call('execute_command', { command });
    const request = await h.nextRequest();
    expect(JSON.stringify(request.grantOptions)).not.toContain(SECRET);
    const line = redactedRecordJson({ t: 'event', ts: 't', event: { type: 'approval_requested', request } });
    expect(line).not.toContain(SECRET);
    expect(line).toContain('[REDACTED:');
    expect(h.gate.decide(request.id, { kind: 'reject', reason: 'no' })).toEqual({ ok: true });
    await result;
  });

  it('a plain command keeps its prefix scope', async () => {
    h = createGateHarness();
    const result = h.call('execute_command', { command: 'mysql -u app appdb' });
    const request = await h.nextRequest();
    expect(request.grantOptions.some((g) => g.match.kind === 'command_prefix')).toBe(true);
    expect(h.gate.decide(request.id, { kind: 'reject', reason: 'no' })).toEqual({ ok: true });
    await result;
  });
});
