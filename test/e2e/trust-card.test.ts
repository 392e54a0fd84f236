/**
 * The trust card in the real binary at 80x24 and 120x40: a clone whose policy file lists 30 narrow allow rules
 * and, last, `allow *`. The broad rule is on the first screen, marked; `t` opens the whole list
 * instead of trusting; trust is recorded only once the list's last line was shown.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptyLaunches } from '../helpers/pty-launch';

const { launch } = ptyLaunches();

describe('the trust card in a pty', () => {
  it.each([
    [80, 24],
    [120, 40],
  ])(
    'at %ix%i: the hidden allow * shows first; t opens the whole list; trust only after its end',
    async (cols, rows) => {
      const narrow = Array.from({ length: 30 }, (_, i) => ({
        tool: 'execute_command',
        when: { command: `npm run task${i}` },
        decision: 'allow',
      }));
      const policy = JSON.stringify({ rules: [...narrow, { tool: '*', decision: 'allow' }] });
      const { app, home } = await launch([], {
        files: { '.warden/policy.json': policy },
        size: { cols, rows },
        whenExhausted: { text: 'ok' },
      });
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
      for (const line of app.screen().split('\n')) expect(line.length).toBeLessThanOrEqual(cols);
    },
  );
});
