/**
 * The demo's scratch folders: named after the warden that made them, removed when it exits, and
 * swept at the next start when it could not clean up (kill -9, a crash, a power cut).
 */
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive, processStartTime } from '../os/process';

/** Who made a scratch folder: a pid and, where known, its start time (pids are reused). */
export type ScratchOwner = { pid: number; startTime?: string };

const NAME = /^warden-demo-(\d+)-(\d+|x)-[A-Za-z0-9]{6}$/;

/** The `mkdtemp` prefix of a scratch folder owned by `owner` (this process by default). */
export function demoScratchPrefix(owner: ScratchOwner = currentOwner()): string {
  return `warden-demo-${owner.pid}-${owner.startTime ?? 'x'}-`;
}

/** The owner a scratch folder's name records, or undefined when the name is not one of ours. */
export function scratchOwner(name: string): ScratchOwner | undefined {
  const match = NAME.exec(name);
  if (!match) return undefined;
  const [, pid, startTime] = match;
  return startTime === 'x' ? { pid: Number(pid) } : { pid: Number(pid), startTime };
}

export type SweepEffects = {
  /** Whether the warden that made a folder still runs. */
  alive(owner: ScratchOwner): boolean;
  /** The user id whose folders may be removed (others' are never touched). */
  uid: number | undefined;
};

/**
 * Removes the scratch folders in `parent` whose warden is gone, and returns their names.
 * Only real directories owned by this user are removed: `parent` is usually the shared /tmp,
 * where anyone may plant a look-alike name or a symlink.
 * Contract: never throws; a folder that cannot be removed is left for the next start.
 */
export function sweepStaleDemoScratch(
  parent: string,
  effects: SweepEffects = { alive: ownerAlive, uid: process.getuid?.() },
): string[] {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const owner = scratchOwner(name);
    if (!owner || effects.alive(owner)) continue;
    const path = join(parent, name);
    try {
      const stat = lstatSync(path);
      if (!stat.isDirectory() || (effects.uid !== undefined && stat.uid !== effects.uid)) continue;
      rmSync(path, { recursive: true, force: true, maxRetries: 2 });
      removed.push(name);
    } catch {
      // Busy or vanished: the next start tries again.
    }
  }
  return removed;
}

/**
 * Removes `dir` when this process exits, however it ends short of SIGKILL: a quit, a signal
 * (src/exit.ts ends through process.exit), an unexpected failure. Returns a function that
 * removes it at once and cancels the exit hook.
 * Contract: never throws, now or at exit.
 */
export function removeAtExit(dir: string): () => void {
  const remove = () => {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // Left for the sweep at the next start.
    }
  };
  process.once('exit', remove);
  return () => {
    process.off('exit', remove);
    remove();
  };
}

function currentOwner(): ScratchOwner {
  const startTime = processStartTime(process.pid);
  return startTime === undefined ? { pid: process.pid } : { pid: process.pid, startTime };
}

function ownerAlive(owner: ScratchOwner): boolean {
  if (!Number.isSafeInteger(owner.pid) || owner.pid <= 0 || !processAlive(owner.pid)) return false;
  // A reused pid belongs to another process: the folder's own warden is gone.
  return owner.startTime === undefined || processStartTime(owner.pid) === owner.startTime;
}
