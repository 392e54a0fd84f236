/**
 * Red team, the whole session: a model runs a command holding a password three times, the person
 * approves each. Nothing under WARDEN_HOME — audit, session file, index, policy — may hold it, and
 * warden must not offer to remember the command as a rule (saved to policy.json, it would be kept
 * in the clear there). Real session, gate, tools, audit and recorder; fake model endpoint.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/protocol';
import type { FakeStep } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';
import { allText, filesHolding } from './secrets-home-grep';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const SECRET = 'S3cretPw9xQ';
const COMMAND = `mysql -p${SECRET} appdb`;
const cmd = (command: string): FakeStep => ({ toolCalls: [{ name: 'execute_command', args: { command } }] });

describe('a password through a whole session', () => {
  it('is in no file under WARDEN_HOME, and no rule holding it is offered', async () => {
    h = await startSession([cmd(COMMAND), cmd(COMMAND), cmd(COMMAND), cmd(COMMAND), { text: 'done' }], {
      approver: true,
    });
    const run = h.session.run(`connect with ${COMMAND} and check the tables`);
    for (let i = 0; i < 4; i++) {
      const request = await h.nextRequest();
      expect(JSON.stringify(request.grantOptions)).not.toContain(SECRET);
      h.decide(request.id, { kind: 'approve' });
    }
    await run;
    const offered = h.events.filter((e: CoreEvent) => e.type === 'suggestion_offered');
    expect(JSON.stringify(offered)).not.toContain(SECRET);
    await h.session.close();
    expect(filesHolding(h.home, SECRET)).toEqual([]);
    const text = allText(h.home);
    expect(text).toContain('mysql -p[REDACTED:password] appdb');
  });
});
