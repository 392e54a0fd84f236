import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FaultServer, fault, startFaultServer } from '../helpers/fault-openai';
import { WARDEN_BIN } from '../helpers/pty';
import { noManagedLayer } from '../helpers/managed-env';

type Run = { code: number; stdout: string; stderr: string; ms: number };

let server: FaultServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The real binary, headless, with `config` as the user's config.json in a temp WARDEN_HOME. */
function warden(config: Record<string, unknown>, url: string, extra: string[] = []): Promise<Run> {
  const home = mkdtempSync(join(tmpdir(), 'warden-bounds-home-'));
  const root = mkdtempSync(join(tmpdir(), 'warden-bounds-proj-'));
  dirs.push(home, root);
  mkdirSync(join(home, '.warden'));
  writeFileSync(join(home, '.warden', 'config.json'), JSON.stringify(config));
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [WARDEN_BIN, '--headless', '-p', 'hello', '--root', root, ...extra],
      {
        env: {
          ...noManagedLayer(),
          PATH: process.env.PATH ?? '',
          HOME: home,
          TMPDIR: tmpdir(),
          WARDEN_HOME: join(home, '.warden'),
          OPENAI_BASE_URL: url,
          OPENAI_API_KEY: 'k',
        },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
          ms: performance.now() - started,
        }),
    );
  });
}

describe('the binary honours the model timeouts in config.json', () => {
  it('streamIdleTimeoutSec: a hung server ends the run in seconds, and the message names the setting', async () => {
    server = await startFaultServer([fault.hang(), fault.hang()]);
    const run = await warden({ streamIdleTimeoutSec: 1 }, server.url);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('sent nothing for 1 s (streamIdleTimeoutSec)');
    expect(run.ms).toBeLessThan(15_000);
  });

  it('turnTimeoutSec: a server that keeps the stream alive forever is stopped, and --json ends the turn with stop "turn_timeout"', async () => {
    server = await startFaultServer([fault.keepAlive(Number.POSITIVE_INFINITY, 100, '')]);
    const run = await warden({ turnTimeoutSec: 2 }, server.url, ['--json']);
    expect(run.code).not.toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events).toContainEqual(expect.objectContaining({ type: 'turn_done', stop: 'turn_timeout' }));
    expect(run.ms).toBeLessThan(15_000);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'error', message: expect.stringContaining('(turnTimeoutSec)') }),
    );
  });
});
