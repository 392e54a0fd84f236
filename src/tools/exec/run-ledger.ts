import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive, processStartTime } from '../../os/process';
import { killMarkedSync, stopMarked } from './process-sweep';

/**
 * Which command runs are going, so no process they started outlives them: each run gets an id its
 * processes carry in their environment (process-sweep.ts). Ids are also written to
 * `$WARDEN_HOME/runs/<id>.json` with the owning warden's pid, so when a warden dies without
 * cleaning up (kill -9), the next one finds the run's leftovers and ends them.
 * Process-wide on purpose: an exit handler must reach every run, whichever session started it.
 */
type RunRecord = { runId: string; owner: { pid: number; startTime?: string }; startedAt: string };

const active = new Set<string>();
let ledgerDir: string | undefined;
let exitHookInstalled = false;
const RECORD_NAME = /^[0-9a-f-]{36}\.json$/;

/** From now on, runs are recorded under `dir` (normally `$WARDEN_HOME/runs`). */
export function recordRunsIn(dir: string): void {
  ledgerDir = dir;
}

/** Starts tracking a command run and returns the id its environment carries. Contract: never throws. */
export function beginRun(): string {
  const runId = randomUUID();
  active.add(runId);
  installExitHook();
  if (ledgerDir) {
    const record: RunRecord = { runId, owner: ownerOf(process.pid), startedAt: new Date().toISOString() };
    try {
      mkdirSync(ledgerDir, { recursive: true, mode: 0o700 });
      writeFileSync(join(ledgerDir, `${runId}.json`), JSON.stringify(record), { mode: 0o600 });
    } catch {
      // Without the record only a kill -9 of warden can leave processes behind; the run still goes on.
    }
  }
  return runId;
}

/**
 * Ends a run: stops every process still carrying its id (a `setsid` child, a double fork), then
 * forgets it. Returns how many processes were stopped. Contract: never throws.
 */
export async function endRun(runId: string, graceMs: number): Promise<number> {
  const stopped = await stopMarked(new Set([runId]), graceMs);
  active.delete(runId);
  if (ledgerDir) removeRecord(ledgerDir, runId);
  return stopped;
}

/** How many runs are going in this process. */
export function activeRunCount(): number {
  return active.size;
}

/**
 * Ends what earlier wardens left running: runs recorded under `dir` whose owner is gone (a pid that
 * is dead, or now names another process). Returns the runs and processes found.
 * Contract: never throws.
 */
export async function sweepLeftoverRuns(
  dir: string,
  graceMs = 500,
): Promise<{ runs: number; processes: number }> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => RECORD_NAME.test(name));
  } catch {
    return { runs: 0, processes: 0 };
  }
  const stale = new Set<string>();
  for (const name of names) {
    const record = readRecord(join(dir, name));
    // An unreadable record names no owner that could still be running it: its id is swept.
    if (!record || !ownerAlive(record.owner)) stale.add(name.slice(0, -'.json'.length));
  }
  if (stale.size === 0) return { runs: 0, processes: 0 };
  const processes = await stopMarked(stale, graceMs);
  for (const runId of stale) removeRecord(dir, runId);
  return { runs: stale.size, processes };
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // The last resort, whatever way the process ends normally: nothing can wait here, so SIGKILL.
  process.on('exit', () => {
    if (active.size === 0) return;
    killMarkedSync(active);
    if (ledgerDir) for (const runId of active) removeRecord(ledgerDir, runId);
    active.clear();
  });
}

function ownerOf(pid: number): RunRecord['owner'] {
  const startTime = processStartTime(pid);
  return startTime === undefined ? { pid } : { pid, startTime };
}

function ownerAlive(owner: RunRecord['owner']): boolean {
  if (!Number.isInteger(owner.pid) || owner.pid <= 0 || !processAlive(owner.pid)) return false;
  return owner.startTime === undefined || processStartTime(owner.pid) === owner.startTime;
}

function readRecord(path: string): RunRecord | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as RunRecord;
    return typeof value?.owner?.pid === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

function removeRecord(dir: string, runId: string): void {
  try {
    rmSync(join(dir, `${runId}.json`), { force: true });
  } catch {
    // A record left behind is swept (and removed) by the next start.
  }
}
