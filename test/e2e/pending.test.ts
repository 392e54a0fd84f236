/**
 * `warden pending` from a second terminal: while the TUI shows a card, the request is listed as
 * running (with the TUI's pid); once that warden is killed, as parked. The listing only reads: the
 * card's file is not written either way.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptyLaunches } from '../helpers/pty-launch';
import { runWarden } from '../helpers/run-warden';

const { launch } = ptyLaunches();

describe('warden pending', () => {
  it('lists a waiting card of a running warden, then of a stopped one', async () => {
    const { app, home, root } = await launch(
      [{ toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'hi\n' } }] }],
      { prompt: 'write a.txt' },
    );
    await app.waitFor('Approval needed');
    const listed = async () => {
      const run = await runWarden(['pending', '--json'], { WARDEN_HOME: home });
      expect(run.code).toBe(0);
      return run.stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    };
    const running = await listed();
    expect(running).toHaveLength(1);
    expect(running[0]).toMatchObject({
      tool: 'write_file',
      state: 'running',
      project: root,
      call: expect.stringContaining('a.txt'),
      expired: false,
    });
    expect(running[0].pid).toEqual(expect.any(Number));
    app.pty.kill('SIGKILL');
    await app.exited;
    const parked = await listed();
    expect(parked).toMatchObject([{ id: running[0].id, state: 'parked' }]);
    const text = await runWarden(['pending'], { WARDEN_HOME: home });
    expect(text.stdout).toContain('parked');
    expect(text.stdout).toContain('write_file');
    expect(existsSync(join(root, 'a.txt'))).toBe(false);
    const bad = await runWarden(['pending', '--approve'], { WARDEN_HOME: home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown option --approve/);
  });

  // The saved request is made safe when recorded; pending-cli sanitizes again (a session file is not trusted).
  it("a waiting command's control sequences reach the listing as visible text, never as escapes", async () => {
    const command = 'touch "x\u001b]0;pwned\u0007\u001b[2Jy"';
    const { app, home } = await launch([{ toolCalls: [{ name: 'execute_command', args: { command } }] }], {
      prompt: 'touch a file',
    });
    await app.waitFor('Approval needed');
    for (const args of [['pending'], ['pending', '--json']]) {
      const run = await runWarden(args, { WARDEN_HOME: home });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('execute_command');
      expect(run.stdout).not.toMatch(/[\u0007\u001b\u009b]/);
    }
  });
});
