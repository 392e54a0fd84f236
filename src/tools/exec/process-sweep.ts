import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { processAlive } from '../../os/process';

/**
 * The variable every command warden runs carries, with its run's id. A process that leaves the
 * command's process group (`setsid`, a double fork) keeps its environment, so a sweep of
 * `/proc/<pid>/environ` still finds it. A program that starts with a scrubbed environment
 * (`env -i`) is not found: the sandbox's PID namespace is the boundary, this is the net without it.
 */
export const RUN_ID_VARIABLE = 'WARDEN_RUN_ID';

const KEY = Buffer.from(`${RUN_ID_VARIABLE}=`);

/**
 * Live processes (never this one) whose environment carries one of the run ids. Linux only
 * (elsewhere none are found). Contract: never throws; processes that cannot be read are skipped.
 */
export function findMarked(runIds: ReadonlySet<string>): { pid: number; runId: string }[] {
  if (runIds.size === 0 || process.platform !== 'linux') return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: { pid: number; runId: string }[] = [];
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    const runId = runIdOf(pid);
    if (runId !== undefined && runIds.has(runId)) found.push({ pid, runId });
  }
  return found;
}

/** The run id in a process's environment, if any. */
export function runIdOf(pid: number): string | undefined {
  let env: Buffer;
  try {
    env = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
  // Entries are NUL-separated; the key must start an entry, not sit inside another value.
  let at = env.indexOf(KEY);
  while (at > 0 && env[at - 1] !== 0) at = env.indexOf(KEY, at + 1);
  if (at < 0) return undefined;
  const end = env.indexOf(0, at);
  return env.subarray(at + KEY.length, end < 0 ? env.length : end).toString('utf8');
}

/**
 * Stops every process marked with one of the run ids: SIGTERM, then SIGKILL to whatever is still
 * there (or appeared: a process may fork while it dies) after `graceMs`. Returns how many were found.
 * Contract: never throws.
 */
export async function stopMarked(runIds: ReadonlySet<string>, graceMs: number): Promise<number> {
  const first = findMarked(runIds);
  if (first.length === 0) return 0;
  for (const { pid } of first) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && first.some(({ pid }) => processAlive(pid))) await delay(20);
  const seen = new Set(first.map((p) => p.pid));
  // A few rounds: a dying process may still have forked a child that carries the mark.
  for (let round = 0; round < 3; round++) {
    const left = findMarked(runIds);
    if (left.length === 0) break;
    for (const { pid } of left) {
      seen.add(pid);
      signal(pid, 'SIGKILL');
    }
  }
  return seen.size;
}

/** SIGKILL to every marked process, at once (for the exit handler, where nothing can wait). Contract: never throws. */
export function killMarkedSync(runIds: ReadonlySet<string>): number {
  const found = findMarked(runIds);
  for (const { pid } of found) signal(pid, 'SIGKILL');
  return found.length;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already, or not ours to signal.
  }
}
