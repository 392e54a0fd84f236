/**
 * One process holds a session: two wardens that `--continue` the same session at once
 * made the model see one merged conversation that never happened. `sessions/<id>.lock` names the
 * holder (pid, host, since when); it is taken over only when that process is gone (same host, pid
 * not alive), and released when the session closes or the process exits.
 */
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { sessionsDir } from './store-index';

/** Who holds a session. */
export type SessionHolder = { pid: number; host: string; since: string };

export type SessionLock =
  | { ok: true; release(): void }
  | { ok: false; holder: SessionHolder; message: string };

const held = new Set<string>();
let exitHook = false;

/** `$WARDEN_HOME/sessions/<id>.lock`. */
export const sessionLockFile = (home: string, id: string): string => join(sessionsDir(home), `${id}.lock`);

/**
 * Takes session `id` for this process. Contract: never throws; a sessions folder that cannot be
 * written gives an unheld lock (the recorder reports that folder's problem itself), and a lock held
 * by a live process (or one on another host) comes back `ok: false` with who holds it.
 */
export function takeSessionLock(home: string, id: string): SessionLock {
  const path = sessionLockFile(home, id);
  const mine: SessionHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  try {
    mkdirSync(sessionsDir(home), { recursive: true, mode: 0o700 });
  } catch {
    return { ok: true, release: () => undefined };
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, `${JSON.stringify(mine)}\n`, { flag: 'wx', mode: 0o600 });
      return hold(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return { ok: true, release: () => undefined };
    }
    const holder = readHolder(path);
    if (holder && holder.pid === process.pid && holder.host === mine.host) return hold(path);
    if (holder && !gone(holder)) return { ok: false, holder, message: heldMessage(id, holder) };
    // The holder is gone (or the file is unreadable, a crash mid-write): take it over by rename,
    // so two wardens taking over at once do not both win — the loser sees the winner's file next.
    const temp = `${path}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, `${JSON.stringify(mine)}\n`, { mode: 0o600 });
      if (readHolder(path)?.pid !== holder?.pid) continue;
      renameSync(temp, path);
      if (readHolder(path)?.pid === process.pid) return hold(path);
    } catch {
      // Raced with another warden: look again.
    } finally {
      try {
        unlinkSync(temp);
      } catch {
        // Renamed into place.
      }
    }
  }
  const holder = readHolder(path) ?? { pid: 0, host: 'unknown', since: 'unknown' };
  return { ok: false, holder, message: heldMessage(id, holder) };
}

function hold(path: string): SessionLock {
  held.add(path);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const p of held) release(p);
    });
  }
  return {
    ok: true,
    release: () => {
      held.delete(path);
      release(path);
    },
  };
}

/** Removes the lock if it is still this process's. */
function release(path: string): void {
  try {
    if (readHolder(path)?.pid === process.pid) unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** Who holds session `id` now: a live process (or one on another host), or undefined when none does. */
export function liveHolder(home: string, id: string): SessionHolder | undefined {
  const holder = readHolder(sessionLockFile(home, id));
  return holder && !gone(holder) ? holder : undefined;
}

function readHolder(path: string): SessionHolder | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<SessionHolder>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string') return undefined;
    return {
      pid: value.pid,
      host: value.host,
      since: typeof value.since === 'string' ? value.since : 'unknown',
    };
  } catch {
    return undefined;
  }
}

/** Whether the holder's process has ended (only knowable on this host). */
function gone(holder: SessionHolder): boolean {
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function heldMessage(id: string, holder: SessionHolder): string {
  return `session ${id} is open in another warden (pid ${holder.pid} on ${holder.host}, since ${holder.since}); two at once would mix one conversation. Close that one, or add --fork to continue a copy of it as a new session.`;
}
