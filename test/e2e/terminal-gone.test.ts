/**
 * Closing the terminal (issue 29 §4), through the real binary in tmux: with a sandboxed command
 * running, `tmux kill-session` takes the terminal away (SIGHUP, stdin at its end, every write EIO).
 * warden must still write the command's outcome line, and end by the hang-up — not die in Node's
 * restore of a terminal that is gone (SIGABRT in nodejs/node#51519; SIGSEGV seen here).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI } from '../helpers/fake-openai';
import { WARDEN_BIN } from '../helpers/pty';
import { noManagedLayer } from '../helpers/managed-env';
import { auditDayFiles } from '../helpers/audit-lines';

const RECORD_EXIT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'record-exit.cjs');
const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** Every audit line of `home`, parsed. */
function auditLines(home: string): Record<string, unknown>[] {
  const dir = join(home, 'audit');
  if (!existsSync(dir)) return [];
  return auditDayFiles(dir)
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe.skipIf(!hasTmux)('the terminal closed under a running command (tmux kill-session)', () => {
  it('writes the outcome line and ends by SIGHUP, not by a crash in the terminal reset', {
    timeout: 60_000,
  }, async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-hup-proj-')));
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'warden-hup-home-')));
    const name = `warden-hup-${process.pid}-${Date.now()}`;
    cleanup.push(() => {
      try {
        execFileSync('tmux', ['kill-session', '-t', name], { stdio: 'ignore' });
      } catch {
        // Already gone: the test killed it.
      }
      rmSync(root, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    });
    const server = await startFakeOpenAI(
      [{ toolCalls: [{ name: 'execute_command', args: { command: 'sleep 30' } }] }, { text: 'done' }],
      { whenExhausted: { text: 'Done.' } },
    );
    cleanup.push(() => server.close());
    const status = join(home, 'status.json');
    const env = {
      ...noManagedLayer(),
      PATH: process.env.PATH ?? '',
      HOME: home,
      WARDEN_HOME: home,
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: 'k',
      WARDEN_MODEL: 'fake-model',
      TERM: 'xterm-256color',
    };
    const command = [
      'env',
      '-i',
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
      process.execPath,
      RECORD_EXIT,
      status,
      process.execPath,
      WARDEN_BIN,
      '--root',
      root,
      '--mode',
      'auto',
      'run the sleep',
    ];
    execFileSync('tmux', ['new-session', '-d', '-s', name, '-x', '120', '-y', '40', ...command]);
    // The command runs: its decision line is written, no outcome yet.
    await vi.waitFor(
      () => {
        const screen = execFileSync('tmux', ['capture-pane', '-p', '-t', name]).toString();
        expect(screen).toMatch(/execute_command sleep 30 · running/);
      },
      { timeout: 30_000, interval: 100 },
    );
    execFileSync('tmux', ['kill-session', '-t', name]);
    await vi.waitFor(() => expect(existsSync(status)).toBe(true), { timeout: 30_000, interval: 100 });
    expect(JSON.parse(readFileSync(status, 'utf8'))).toEqual({ code: null, signal: 'SIGHUP' });
    const lines = auditLines(home).filter((l) => l.tool === 'execute_command');
    expect(lines.map((l) => l.outcome ?? 'decision')).toEqual(['decision', 'cancelled']);
  });
});
