/**
 * The trust card in the real binary at 80x24: a clone whose policy file lists 30 narrow allow rules
 * and, last, `allow *`. The broad rule is on the first screen, marked; `t` opens the whole list
 * instead of trusting; trust is recorded only once the list's last line was shown.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-openai';
import { type PtyApp, startWarden } from '../helpers/pty';

let app: PtyApp | undefined;
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  app?.kill();
  await app?.exited;
  await fake?.close();
  app = undefined;
  fake = undefined;
});

describe('the trust card at 80x24', () => {
  it('shows the hidden allow * first; t opens the whole list; trust only after its end', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-trustcard-proj-')));
    const home = mkdtempSync(join(tmpdir(), 'warden-trustcard-home-'));
    mkdirSync(join(root, '.warden'));
    const narrow = Array.from({ length: 30 }, (_, i) => ({
      tool: 'execute_command',
      when: { command: `npm run task${i}` },
      decision: 'allow',
    }));
    writeFileSync(
      join(root, '.warden', 'policy.json'),
      JSON.stringify({ rules: [...narrow, { tool: '*', decision: 'allow' }] }),
    );
    fake = await startFakeOpenAI([], { whenExhausted: { text: 'ok' } });
    app = startWarden(
      ['--root', root],
      { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test', WARDEN_HOME: home },
      { cols: 80, rows: 24 },
    );
    await app.waitFor('Trust this project');
    await app.waitFor(/BROAD\s+allow \* \(every tool, every call\)/);
    await app.waitFor('t shows the whole list');
    app.press('t');
    await app.waitFor(/\(1–\d+ of 31\)/);
    expect(existsSync(join(home, 'trust.json'))).toBe(false);
    app.press('t');
    await app.waitFor(/\(\d+–31 of 31\)/);
    await app.waitFor('npm run task29');
    expect(existsSync(join(home, 'trust.json'))).toBe(false);
    app.press('t');
    await app.waitUntil(() => existsSync(join(home, 'trust.json')), 15_000, 'trust.json to be written');
    for (const line of app.screen().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
