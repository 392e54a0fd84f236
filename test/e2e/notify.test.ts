/**
 * Notifications through the real binary: with `notify.method: "osc9"` in the person's config, OSC 9
 * reaches the terminal when a card starts waiting and when the turn ends; their `notify.command`
 * gets the same notifications as JSON lines on stdin. A project's `notify` counts for nothing.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ptyLaunches } from '../helpers/pty-launch';

const { launch } = ptyLaunches();

describe('notifications in the real binary', () => {
  it('OSC 9 when a card waits and when the turn ends; notify.command gets each as JSON', async () => {
    const home = mkdtempSync(join(tmpdir(), 'warden-notify-home-'));
    const got = join(home, 'notified.jsonl');
    const script = join(home, 'notify.sh');
    writeFileSync(script, `#!/bin/sh\ncat >> "${got}"\n`);
    chmodSync(script, 0o755);
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ notify: { method: 'osc9', command: [script] } }),
    );
    const { app, root } = await launch(
      [
        { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'hi\n' } }] },
        { text: 'Wrote a.txt.' },
      ],
      {
        prompt: 'write a.txt',
        // A project asking for its own program is refused (it would run when a card waits).
        files: { '.warden/config.json': JSON.stringify({ notify: { command: ['/bin/false'] } }) },
        env: { WARDEN_HOME: home },
        whenExhausted: { text: 'Done.' },
      },
    );
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
