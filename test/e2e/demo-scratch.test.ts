import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type PtyApp, startWarden, WARDEN_BIN } from '../helpers/pty';
import { noManagedLayer } from '../helpers/managed-env';

// The demo's scratch copies live in the binary's TMPDIR: a private one per test, so what is left is countable.
const dirs: string[] = [];
let app: PtyApp | undefined;
afterEach(() => {
  app?.kill();
  app = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(): { tmp: string; env: Record<string, string> } {
  const base = mkdtempSync(join(tmpdir(), 'warden-demo-e2e-'));
  dirs.push(base);
  const tmp = join(base, 'tmp');
  const home = join(base, 'home');
  mkdirSync(tmp);
  mkdirSync(home);
  return {
    tmp,
    env: {
      ...noManagedLayer(),
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      WARDEN_HOME: join(home, '.warden'),
      TMPDIR: tmp,
    },
  };
}

const scratches = (tmp: string) => readdirSync(tmp).filter((n) => n.startsWith('warden-demo-'));

function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim(),
  );
}

describe('the demo’s scratch copy', () => {
  it('headless: made under TMPDIR, gone at exit; a gone warden’s copy is swept at start', async () => {
    const s = setup();
    const stale = `warden-demo-${deadPid()}-x-aaaaaa`;
    mkdirSync(join(s.tmp, stale, 'greet-demo'), { recursive: true });
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [WARDEN_BIN, '--headless', '--demo', '-p', 'go'],
        { env: s.env, cwd: s.env.HOME },
        (error, _stdout, stderr) => {
          resolve({ code: error ? Number(error.code ?? 1) : 0, stderr: String(stderr) });
        },
      );
    });
    // Nobody approves the plan headless, so the demo stops there and says so (issue 33): exit 0.
    expect(run.code).toBe(0);
    // The run worked in a copy under the private TMPDIR (the session's index names its project)...
    const index = join(s.env.WARDEN_HOME as string, 'sessions', 'index');
    const roots = readdirSync(index).map((f) => readFileSync(join(index, f), 'utf8'));
    expect(roots.join('\n')).toContain(join(s.tmp, 'warden-demo-'));
    // ...and left nothing there, the stale copy included.
    expect(scratches(s.tmp)).toEqual([]);
  });

  describe.skipIf(process.platform !== 'linux')('the full-screen app', () => {
    it.each([
      ['SIGTERM', 143],
      ['SIGHUP', 129],
      ['Ctrl+C (interrupt, then twice to quit)', 0],
    ] as const)('%s with a card pending: the copy is removed, exit %i', async (how, code) => {
      const s = setup();
      app = startWarden(['--demo'], { ...s.env, WARDEN_TEST_CWD: s.env.HOME as string });
      await app.waitFor('Approval needed');
      expect(scratches(s.tmp)).toHaveLength(1);
      if (how === 'Ctrl+C (interrupt, then twice to quit)') {
        // The first press interrupts the running turn (its card ends cancelled); then two quit.
        app.press('\u0003');
        await app.waitFor("Cancelled main's task");
        app.press('\u0003');
        await app.waitFor('again to quit');
        app.press('\u0003');
      } else process.kill(app.pty.pid, how);
      expect(await app.exited).toBe(code);
      expect(scratches(s.tmp)).toEqual([]);
    });
  });
});
