/**
 * The lock that serialises appends to one audit folder across processes (two wardens on one home,
 * sub-agents' writers), so each line's `prevHash` is computed from the file's real last line.
 *
 * Node has no flock, and an O_EXCL lock file costs three system calls (~15 µs on ext4) — most of the
 * 1.3× budget an append has. A hard link costs one: each process keeps an anchor file
 * (`.writers/<pid>-<random>`, holding its pid and host) and takes the lock by linking it as `.lock`
 * (EEXIST: someone holds it); releasing unlinks it. Taken, the lock is held for the rest of the
 * current job and let go once its microtasks have run: a burst of lines written in one job (a
 * turn's calls, a shared write) takes it once, and while it is held no other process can have
 * appended, so a writer's idea of the file's end stays true without a look (unless another writer
 * of the same process wrote meanwhile). A lease older than LEASE_MS is renewed (let go and taken
 * again), so a long job never outlives a waiter's patience.
 *
 * Reading `.lock` names the holder: a lock left by a process that died holding it is taken over at
 * once, and one held longer than STEAL_AFTER_MS (a holder stopped with SIGSTOP) is taken over then.
 */
import type * as nodeFs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/** The file operations the lock uses (node:fs by default; the writer's fault tests pass their own). */
export type LockFs = Pick<
  typeof nodeFs,
  'mkdirSync' | 'linkSync' | 'unlinkSync' | 'statSync' | 'writeFileSync' | 'readFileSync' | 'readdirSync'
>;

/** A holder alive but not letting go this long is taken to be stuck (stopped); its lock is taken over. */
const STEAL_AFTER_MS = 1000;
/** How long a waiter spins before it sleeps between tries, and its longest sleep. */
const SPIN_TRIES = 50;
/** How often a waiter looks whether the holder still runs. */
const LOOK_EVERY_MS = 10;
const MAX_SLEEP_MS = 1;

export type AppendLock = {
  /**
   * Holds the lock until the current job's microtasks have run, taking it (blocking) when this
   * process does not hold it. True when the file's end may have moved since this writer last wrote:
   * the lock was just taken (another process may have appended), or another writer of this process
   * wrote meanwhile. Contract: throws only when the folder cannot hold a lock (EROFS, ENOSPC…).
   */
  hold(): boolean;
  /**
   * This writer is done with the folder: the last of the process's writers to close lets go and
   * removes the anchor (a later hold joins again). Contract: never throws.
   */
  close(): void;
};

/** How long one taking of the lock may serve a run of writes before it is renewed. */
const LEASE_MS = 100;

const errno = (err: unknown): string | undefined => (err as NodeJS.ErrnoException)?.code;

/**
 * One folder's lock as this process has it, shared by every writer of the folder in the process (a
 * second writer taking the lock its neighbour holds for the job would wait on itself).
 */
type FolderLock = {
  anchor?: { path: string; ino: number };
  /** The folder's file system has no hard links: appends go unlocked (the chain may break under concurrency). */
  unlockable: boolean;
  /** When the lock was taken; undefined while the process does not hold it. */
  held?: number;
  /** The writer that wrote last under the lock: another's turn means the file's end moved. */
  lastWriter?: object;
  /** Writers open on the folder; the last to close removes the anchor. */
  users: number;
};

const folders = new Map<string, FolderLock>();

/** The lock of the audit folder `dir`, for one writer. */
export function appendLock(fs: LockFs, dir: string): AppendLock {
  const key = resolve(dir);
  const lockPath = join(dir, '.lock');
  const writers = join(dir, '.writers');
  const host = hostname();
  const me = {};
  let joined = false;
  const folder = (): FolderLock => {
    let f = folders.get(key);
    if (!f) {
      f = { unlockable: false, users: 0 };
      folders.set(key, f);
    }
    if (!joined) {
      joined = true;
      f.users += 1;
    }
    return f;
  };

  const makeAnchor = (f: FolderLock): { path: string; ino: number } => {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Not recursive: on a read-only file system a recursive mkdir says ENOENT, this one EROFS.
    try {
      fs.mkdirSync(writers, { mode: 0o700 });
    } catch (err) {
      if (errno(err) !== 'EEXIST') throw err;
    }
    if (!f.anchor) sweepDeadAnchors(fs, writers, host);
    const path = join(writers, `${process.pid}-${randomBytes(4).toString('hex')}`);
    fs.writeFileSync(path, `${process.pid} ${host}\n`, { mode: 0o600 });
    return { path, ino: fs.statSync(path).ino };
  };

  /** Whether the lock's holder is a process of this host that no longer runs. */
  const holderGone = (): boolean => {
    let text: string;
    try {
      text = fs.readFileSync(lockPath, 'utf8');
    } catch {
      return false;
    }
    const [pid, at] = text.trim().split(' ');
    return at === host && !processAlive(Number(pid));
  };

  const takeOver = (): void => {
    try {
      fs.unlinkSync(lockPath);
    } catch {
      // Released or taken over by someone else meanwhile: the next try sees which.
    }
  };

  /** Blocks until this process holds the lock. */
  const acquire = (f: FolderLock): void => {
    f.anchor ??= makeAnchor(f);
    let started = Date.now();
    let lastLook = started;
    for (let tries = 0; ; tries++) {
      try {
        fs.linkSync(f.anchor.path, lockPath);
        f.held = Date.now();
        return;
      } catch (err) {
        const code = errno(err);
        if (code === 'ENOENT') {
          // The anchor (or .writers) was removed under us: make another.
          f.anchor = makeAnchor(f);
          continue;
        }
        if (code !== 'EEXIST') {
          if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
            f.unlockable = true;
            return;
          }
          throw err;
        }
      }
      if (tries < SPIN_TRIES) continue;
      const now = Date.now();
      // Now and then (a holder lets go within microseconds), look whether it still runs: a dead one's lock is taken.
      if (now - started >= STEAL_AFTER_MS) {
        takeOver();
        started = now;
      } else if (now - lastLook >= LOOK_EVERY_MS) {
        lastLook = now;
        if (holderGone()) takeOver();
      }
      sleepSync(Math.min(MAX_SLEEP_MS, 0.05 * 2 ** Math.min(tries - SPIN_TRIES, 5)));
    }
  };

  const release = (f: FolderLock): void => {
    const { held, anchor } = f;
    if (held === undefined || !anchor) return;
    // Held long enough that a waiter may have taken it over (this process was stopped): let go
    // only if it is still ours, the anchor's inode. Otherwise (microseconds) it is ours.
    const mayBeTaken = Date.now() - held >= STEAL_AFTER_MS / 2;
    f.held = undefined;
    try {
      if (!mayBeTaken || fs.statSync(lockPath).ino === anchor.ino) fs.unlinkSync(lockPath);
    } catch {
      // Already gone.
    }
  };

  return {
    hold() {
      const f = folder();
      const mine = f.lastWriter === me;
      f.lastWriter = me;
      if (f.unlockable) return true;
      if (f.held !== undefined) {
        if (Date.now() - f.held < LEASE_MS) return !mine;
        release(f);
      }
      acquire(f);
      if (f.held !== undefined) queueMicrotask(() => release(f));
      return true;
    },
    close() {
      const f = folders.get(key);
      if (!f || !joined) return;
      joined = false;
      f.users -= 1;
      if (f.users > 0) return;
      release(f);
      folders.delete(key);
      if (!f.anchor) return;
      try {
        fs.unlinkSync(f.anchor.path);
      } catch {
        // Gone already.
      }
    },
  };
}

/** Removes the anchors of this host's writers that no longer run (a warden killed), once per writer. */
function sweepDeadAnchors(fs: LockFs, writers: string, host: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(writers);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(writers, name);
    try {
      const [pid, at] = fs.readFileSync(path, 'utf8').trim().split(' ');
      if (at === host && !processAlive(Number(pid))) fs.unlinkSync(path);
    } catch {
      // Unreadable or gone: left alone.
    }
  }
}

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errno(err) === 'EPERM';
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
