/**
 * Red team, faults, the real binary on a full WARDEN_HOME (a tmpfs filled to the last byte before
 * warden starts): headless says so in one line and ends with 4, nothing run; the full-screen app
 * starts, tells the person, refuses the call, and keeps working (a session file it cannot save is
 * a warning, not a crash) until Ctrl+C twice ends it with 0.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canMount, fillDisk, mountTmpfs, unmount } from '../audit/mounts';
import { type FakeOpenAI, type FakeStep, startFakeOpenAI } from '../helpers/fake-openai';
import { type PtyApp, WARDEN_BIN, startWarden } from '../helpers/pty';
import { noManagedLayer } from '../helpers/managed-env';

let fake: FakeOpenAI | undefined;
let app: PtyApp | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  app?.kill();
  await app?.exited;
  app = undefined;
  await fake?.close();
  fake = undefined;
  for (const fn of cleanups.splice(0).reverse()) fn();
});

/** A project, and a WARDEN_HOME on a full 256 KB tmpfs whose config turns the sandbox off. */
async function fullHome(script: FakeStep[]) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-rtf-proj-')));
  const home = mkdtempSync(join(tmpdir(), 'warden-rtf-home-'));
  mountTmpfs(home, 256);
  cleanups.push(() => {
    unmount(home);
    rmSync(home, { recursive: true, force: true });
  });
  writeFileSync(join(home, 'config.json'), JSON.stringify({ sandbox: 'off' }));
  writeFileSync(
    join(home, 'policy.json'),
    JSON.stringify({ rules: [{ tool: 'execute_command', decision: 'allow' }] }),
  );
  fillDisk(home);
  fake = await startFakeOpenAI(script, { whenExhausted: { text: 'Could not.' } });
  const env = {
    ...noManagedLayer(),
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: tmpdir(),
    WARDEN_HOME: home,
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'k',
  };
  return { root, home, env };
}

const touch: FakeStep = {
  toolCalls: [{ name: 'execute_command', args: { command: 'touch ran.txt' } }],
};

describe.skipIf(!canMount)('a full WARDEN_HOME, the real binary', () => {
  it('headless: one line says the audit log cannot be written, nothing runs, exit 4', async () => {
    const s = await fullHome([touch]);
    const child = spawn(process.execPath, [WARDEN_BIN, '--headless', '-p', 'go', '--root', s.root], {
      env: s.env,
      cwd: s.root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(4);
    expect(existsSync(join(s.root, 'ran.txt'))).toBe(false);
    expect(err).toMatch(
      /^warden: the audit log cannot be written \(ENOSPC[^)]*\); nothing runs without it, so the run stops \(audit_unavailable\)\.$/m,
    );
    expect(err).not.toMatch(/Unhandled|^\s+at /m);
  });

  it('the app: starts, shows the problem, refuses the call, stays up; Ctrl+C twice ends it with 0', async () => {
    const s = await fullHome([touch]);
    app = startWarden(['--root', s.root, 'run it'], { ...s.env, WARDEN_TEST_CWD: s.root });
    await app.waitFor(/audit log cannot be written/i);
    await app.waitFor('Could not.');
    expect(existsSync(join(s.root, 'ran.txt'))).toBe(false);
    // Still taking keys. The turn's end reaches the prompt a moment after its text: a press before
    // that interrupts ("Nothing is running"), so press until quitting is armed, as a person would.
    await app.waitUntil((screen) => !/working/.test(screen), 10_000, 'the turn to end');
    app.press('\u0003');
    await app.waitFor(/press Ctrl\+C again to quit|Nothing is running/);
    if (!app.screen().includes('press Ctrl+C again to quit')) {
      app.press('\u0003');
      await app.waitFor('press Ctrl+C again to quit');
    }
    app.press('\u0003');
    expect(await app.exited).toBe(0);
  });
});
