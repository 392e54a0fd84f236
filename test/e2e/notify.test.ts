/**
 * Notifications through the real binary: with `notify.method: "osc9"` in the person's config, OSC 9
 * reaches the terminal when a card starts waiting and when the turn ends; their `notify.command`
 * gets the same notifications as JSON lines on stdin. A project's `notify` counts for nothing.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

describe('notifications in the real binary', () => {
  it('OSC 9 when a card waits and when the turn ends; notify.command gets each as JSON', async () => {
    const root = mkdtempSync(join(tmpdir(), 'warden-notify-proj-'));
    const home = mkdtempSync(join(tmpdir(), 'warden-notify-home-'));
    const got = join(home, 'notified.jsonl');
    const script = join(home, 'notify.sh');
    writeFileSync(script, `#!/bin/sh\ncat >> "${got}"\n`);
    chmodSync(script, 0o755);
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ notify: { method: 'osc9', command: [script] } }),
    );
    // A project asking for its own program is refused (it would run when a card waits).
    mkdirSync(join(root, '.warden'));
    writeFileSync(
      join(root, '.warden', 'config.json'),
      JSON.stringify({ notify: { command: ['/bin/false'] } }),
    );
    fake = await startFakeOpenAI(
      [
        { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'hi\n' } }] },
        { text: 'Wrote a.txt.' },
      ],
      { whenExhausted: { text: 'Done.' } },
    );
    app = startWarden(['--root', root, 'write a.txt'], {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'test',
      WARDEN_HOME: home,
    });
    const osc: string[] = [];
    app.term.parser.registerOscHandler(9, (data) => {
      osc.push(data);
      return true;
    });
    await app.waitFor('Approval needed');
    await vi.waitFor(() => expect(osc.some((t) => t.startsWith('warden asks: write_file'))).toBe(true), {
      timeout: 15_000,
    });
    await app.pressOnCard('y', 'Wrote a.txt.');
    await vi.waitFor(() => expect(osc.some((t) => t.startsWith('The turn ended'))).toBe(true), {
      timeout: 15_000,
    });
    expect(existsSync(join(root, 'a.txt'))).toBe(true);
    await vi.waitFor(
      () => {
        const lines = existsSync(got) ? readFileSync(got, 'utf8').trim().split('\n') : [];
        expect(lines.map((l) => JSON.parse(l).kind)).toEqual(['approval', 'turn_done']);
      },
      { timeout: 15_000 },
    );
  });
});
