import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUN_PREFIX = 'warden-test-run-';

/**
 * Every test run gets one private temp folder, removed when the run ends. TMPDIR points there, so
 * `os.tmpdir()` in every worker, and in every child that inherits the environment (the real binary
 * in e2e tests, MCP servers, shells), makes its folders inside it: a test that forgets to clean up
 * leaves nothing in /tmp. The run's throw-away WARDEN_HOME and HOME live there too, so no test can
 * touch the real home. Folders of runs that were killed before their teardown are swept at the start.
 */
export default function setup(): () => void {
  const parent = tmpdir();
  sweepDeadRuns(parent);
  const run = mkdtempSync(join(parent, `${RUN_PREFIX}${process.pid}-`));
  process.env.TMPDIR = run;
  const home = join(run, 'home');
  mkdirSync(home);
  process.env.WARDEN_HOME = join(home, '.warden');
  process.env.HOME = home;
  // No test reads this machine's managed folder (/etc/warden): one that does not exist stands in.
  process.env.WARDEN_SYSTEM_DIR = join(run, 'no-managed-layer');
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  return () => removeTree(run);
}

/** Removes `dir`, also when a test left a folder without write permission in it (non-root runs). */
export function removeTree(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    makeWritable(dir);
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

function makeWritable(dir: string): void {
  try {
    if (!lstatSync(dir).isDirectory()) return;
    chmodSync(dir, 0o700);
    for (const name of readdirSync(dir)) makeWritable(join(dir, name));
  } catch {
    // Gone already, or not ours: rmSync reports what is really left.
  }
}

/** Removes run folders whose vitest process is gone (killed before its teardown could run). */
function sweepDeadRuns(parent: string): void {
  const uid = process.getuid?.();
  for (const name of readdirSync(parent)) {
    const pid = Number(new RegExp(`^${RUN_PREFIX}(\\d+)-\\w{6}$`).exec(name)?.[1]);
    if (!pid || alive(pid)) continue;
    const path = join(parent, name);
    try {
      const stat = lstatSync(path);
      if (stat.isDirectory() && (uid === undefined || stat.uid === uid)) removeTree(path);
    } catch {
      // Another run swept it first, or it is not removable: left as it is.
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
