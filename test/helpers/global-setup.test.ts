import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import setup from './global-setup';

const saved = {
  TMPDIR: process.env.TMPDIR,
  HOME: process.env.HOME,
  WARDEN_HOME: process.env.WARDEN_HOME,
  WARDEN_SYSTEM_DIR: process.env.WARDEN_SYSTEM_DIR,
};
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) process.env[key] = value;
});

describe('the test run’s temp folder', () => {
  it('this worker’s temp folder, HOME and WARDEN_HOME are all inside one run folder', () => {
    const run = tmpdir();
    expect(basename(run)).toMatch(/^warden-test-run-\d+-\w{6}$/);
    expect(dirname(process.env.HOME as string)).toBe(run);
    expect(dirname(dirname(process.env.WARDEN_HOME as string))).toBe(run);
    // The managed folder too: never this machine's /etc/warden.
    expect(dirname(process.env.WARDEN_SYSTEM_DIR as string)).toBe(run);
  });

  it('setup sweeps the folders of killed runs, keeps live ones, and its teardown removes everything, read-only folders too', () => {
    const parent = tmpdir();
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim(),
    );
    const killed = `warden-test-run-${dead}-aaaaaa`;
    const live = `warden-test-run-${process.pid}-bbbbbb`;
    for (const name of [killed, live]) mkdirSync(join(parent, name, 'left'), { recursive: true });

    const teardown = setup();
    const run = process.env.TMPDIR as string;
    expect(dirname(run)).toBe(parent);
    expect(tmpdir()).toBe(run);
    expect(readdirSync(parent)).not.toContain(killed);
    expect(readdirSync(parent)).toContain(live);

    const locked = join(run, 'locked');
    mkdirSync(join(locked, 'inner'), { recursive: true });
    writeFileSync(join(locked, 'inner', 'f'), 'x');
    chmodSync(join(locked, 'inner'), 0o500);
    chmodSync(locked, 0o500);
    teardown();
    expect(existsSync(run)).toBe(false);
  });
});
