/**
 * Red team: secrets in configuration, code and command-line forms, through the real audit writer
 * (arguments, reason, result, edited arguments) and the real session recorder (prompt, history,
 * asked calls, events); no file under the temp WARDEN_HOME may hold the secret, and the text
 * around it stays readable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redactString } from '../../src/audit/redact';
import { createAuditWriter } from '../../src/audit/writer';
import { testRecorder } from '../helpers/session-recorder';
import { record } from '../audit/helpers';
import { FORMS, FORMS_BENIGN } from './secrets-forms-corpus';
import { allText, filesHolding } from './secrets-home-grep';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** Writes `text` everywhere a secret can go in one session, and returns the home. */
async function throughHome(text: string): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'warden-rt-forms-'));
  homes.push(home);
  const writer = createAuditWriter({
    dir: join(home, 'audit'),
    sessionId: 's',
    onError: (e) => {
      throw e;
    },
  });
  const args = { path: 'cfg/app.yaml', content: text, command: text };
  expect(
    writer.append(record({ args, editedArgs: { ...args, note: text }, reason: text, result: text })).ok,
  ).toBe(true);
  writer.close();
  const rec = testRecorder(home);
  const call = {
    id: 'c1',
    type: 'function' as const,
    function: { name: 'write_file', arguments: JSON.stringify(args) },
  };
  rec.journal.prompt(text);
  rec.journal.asked(text, [call]);
  rec.journal.sync([
    { role: 'system', content: 'sys' },
    { role: 'user', content: text },
    { role: 'assistant', content: text, tool_calls: [call] },
    { role: 'tool', tool_call_id: 'c1', content: JSON.stringify({ status: 'executed', output: text }) },
  ]);
  rec.onEvent({ type: 'notice', level: 'info', text } as never);
  await rec.close();
  return home;
}

describe('secret forms reach no file under WARDEN_HOME', () => {
  it.each(FORMS)('$name', async ({ text, secret, keep }) => {
    expect(text).toContain(secret);
    const home = await throughHome(text);
    expect(filesHolding(home, secret)).toEqual([]);
    const all = allText(home);
    expect(all).toContain('[REDACTED:');
    if (keep) expect(redactString(text)).toContain(keep);
  });

  it.each(FORMS_BENIGN)('leaves code and prose alone: %j', (text) => {
    expect(redactString(text)).toBe(text);
  });

  it('each new rule is idempotent', () => {
    for (const { text } of FORMS) {
      const once = redactString(text);
      expect(redactString(once)).toBe(once);
    }
  });
});
