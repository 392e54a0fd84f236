/**
 * Red team, shared audit writes against the process itself: warden killed (SIGKILL) in the middle of
 * a burst of 64 parallel writes from three agents. Read back, every file the burst wrote in the
 * project has its decision line in the audit file, and no outcome line comes before its decision.
 * And an open writer with a sync pending or a probe running does not keep the process alive.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/protocol/audit';
import { makeTemp } from '../audit/helpers';
import { auditDayFiles } from '../helpers/audit-lines';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);

/** Runs a fixture to its end; resolves with its exit (code or signal) and what it printed. */
function run(
  name: string,
  args: string[],
): Promise<{ code: number | null; signal: string | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture(name), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  // A child still running when the test ends (it failed, or timed out) is ended with it.
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, out }));
  });
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, base) : [relative(base, path)];
  });
}

describe('warden killed in the middle of a burst', () => {
  it('every file written has its decision line; no outcome line before its decision', async () => {
    const audit = makeTemp();
    cleanups.push(audit.cleanup);
    // Killed right after writing the 150th file: the third burst, with calls at every stage.
    const { signal, out } = await run('audit-batch-burst.ts', [audit.dir, '150']);
    const root = /^root (.+)$/m.exec(out)?.[1];
    expect(root).toBeDefined();
    cleanups.push(() => rmSync(dirname(root as string), { recursive: true, force: true }));
    expect(signal).toBe('SIGKILL');

    const lines = auditDayFiles(audit.dir)
      .flatMap((name) => readFileSync(join(audit.dir, name), 'utf8').split('\n'))
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AuditRecord);
    const seen = new Map<string, string[]>();
    for (const line of lines) {
      const path = (line.args as { path: string }).path;
      seen.set(path, [...(seen.get(path) ?? []), line.phase]);
    }
    const written = filesUnder(root as string);
    expect(written).toHaveLength(150);
    for (const path of written) expect(seen.get(path)?.[0], path).toBe('decision');
    for (const [path, phases] of seen) {
      expect(phases[0], path).toBe('decision');
      expect(phases.length, path).toBeLessThanOrEqual(2);
      // An outcome line says executed only for a file that is there.
      const outcome = lines.find((l) => l.phase === 'outcome' && (l.args as { path: string }).path === path);
      if (outcome?.outcome === 'executed') expect(existsSync(join(root as string, path)), path).toBe(true);
    }
    // The two bursts before it ran whole: 128 decision and outcome lines at least.
    expect(lines.filter((l) => l.outcome === 'executed').length).toBeGreaterThanOrEqual(128);
  });
});

describe('timers of an open writer', () => {
  it('a sync pending and a probe running do not keep the process alive', async () => {
    const home = makeTemp();
    cleanups.push(home.cleanup);
    const { code, out } = await run('audit-batch-linger.ts', [home.dir]);
    expect(code).toBe(0);
    expect(out.trim()).toBe('[true,true,false]');
  });
});
