/**
 * Runs the bundled binary once, to its end, with a clean environment: a fresh temp HOME (and
 * WARDEN_HOME under it) unless `env` names its own, no inherited variables but PATH and TMPDIR;
 * `stdin` is written to the run and closed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WARDEN_BIN } from './pty';
import { noManagedLayer } from './managed-env';

export type WardenRun = { code: number; stdout: string; stderr: string };

export function runWarden(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
  stdin = '',
): Promise<WardenRun> {
  const home = mkdtempSync(join(tmpdir(), 'warden-run-home-'));
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [WARDEN_BIN, ...args],
      {
        env: {
          ...noManagedLayer(),
          PATH: process.env.PATH ?? '',
          HOME: home,
          TMPDIR: tmpdir(),
          WARDEN_HOME: join(home, '.warden'),
          ...env,
        },
        cwd: cwd ?? home,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
    );
    // What a script pipes in (a prompt), then the end of it: a run never waits on an open stdin.
    child.stdin?.end(stdin);
  });
}
