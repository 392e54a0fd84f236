/**
 * Two wardens on one home append to the same day file: the folder's append lock serialises them, so
 * each line's link is computed from the file's real last line and the chain verifies however the
 * two processes' lines interleave. A lock left by a process that died holding it is taken over at
 * once; one held by a process that does not let go (stopped) is taken over after a second.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyDays } from '../../src/audit/chain/verify';
import { createAuditWriter } from '../../src/audit/writer';
import { makeTemp, record } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanups.splice(0).reverse()) f();
});

const script = join(import.meta.dirname, 'fixtures', 'append-many.ts');
const DAY = '2025-03-04';

function startChild(dir: string, name: string, count: number, mode: 'append' | 'soon') {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', script, dir, name, String(count), mode],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('error', reject);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

describe('two processes appending at once', () => {
  it('the chain verifies over 2 × 3000 lines, one process writing line by line and one in shared writes', async () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    const count = 3000;
    const children = [startChild(t.dir, 'alpha', count, 'append'), startChild(t.dir, 'beta', count, 'soon')];
    await Promise.all(children.map((c) => c.ready));
    for (const c of children) c.child.stdin?.write('go\n');
    expect(await Promise.all(children.map((c) => c.exited))).toEqual([0, 0]);

    const lines = readFileSync(join(t.dir, `audit-${DAY}.jsonl`), 'utf8')
      .slice(0, -1)
      .split('\n');
    expect(lines).toHaveLength(2 * count);
    const who = lines.map((l) => (JSON.parse(l) as { agentId: string }).agentId);
    // The writes really overlapped: the two processes' lines are mixed.
    expect(who.filter((w, i) => i > 0 && w !== who[i - 1]).length).toBeGreaterThan(1);
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual(lines.map((_, i) => i + 1));
    const result = verifyDays(t.dir, [DAY], [DAY]);
    expect(result.broken).toBeUndefined();
    expect(result.days[0]).toMatchObject({ lines: 2 * count, unchained: 0 });
  });
});

describe('a lock nobody will release', () => {
  /** Makes `.lock` in `dir` as a writer whose anchor says `pid` would have. */
  function heldBy(dir: string, pid: number): void {
    mkdirSync(join(dir, '.writers'), { recursive: true });
    const anchor = join(dir, '.writers', `${pid}-test`);
    writeFileSync(anchor, `${pid} ${hostname()}\n`);
    linkSync(anchor, join(dir, '.lock'));
  }

  const writerIn = (dir: string) =>
    createAuditWriter({ dir, sessionId: 's', onError: () => {}, probeEveryMs: 0, syncAfterMs: 0 });

  it('held by a process that died: taken over at once', () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    heldBy(t.dir, Number(gone.stdout));
    const writer = writerIn(t.dir);
    cleanups.push(() => writer.close());
    const started = Date.now();
    expect(writer.append({ ...record({ ts: `${DAY}T01:00:00.000Z` }) }).ok).toBe(true);
    // Well before the second a live holder is given.
    expect(Date.now() - started).toBeLessThan(900);
    expect(verifyDays(t.dir, [DAY], [DAY]).broken).toBeUndefined();
  });

  it('held by a live process that does not let go (stopped): taken over after a second', () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    heldBy(t.dir, process.pid);
    const writer = writerIn(t.dir);
    cleanups.push(() => writer.close());
    const started = Date.now();
    expect(writer.append({ ...record({ ts: `${DAY}T01:00:00.000Z` }) }).ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });
});

describe('two writers of one process on one folder', () => {
  it('share the lock (neither waits on the other) and each chains after the other’s lines', () => {
    const t = makeTemp();
    cleanups.push(t.cleanup);
    const make = (name: string) =>
      createAuditWriter({ dir: t.dir, sessionId: name, onError: () => {}, probeEveryMs: 0, syncAfterMs: 0 });
    const a = make('a');
    const b = make('b');
    const started = Date.now();
    for (let i = 0; i < 50; i++) {
      expect(a.append(record({ ts: `${DAY}T01:00:00.000Z`, argsHash: `a${i}` })).ok).toBe(true);
      expect(b.append(record({ ts: `${DAY}T01:00:00.000Z`, argsHash: `b${i}` })).ok).toBe(true);
    }
    expect(Date.now() - started).toBeLessThan(900);
    a.close();
    b.close();
    const result = verifyDays(t.dir, [DAY], [DAY]);
    expect(result.broken).toBeUndefined();
    expect(result.days[0]).toMatchObject({ lines: 100 });
  });
});
