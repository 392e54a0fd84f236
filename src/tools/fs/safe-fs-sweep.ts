/**
 * Start-up sweep for temp files that an interrupted write left in the project (kill -9 between the
 * temp file and the rename). Only names of warden's own patterns are touched, and only when stale:
 * their writer's process is gone, or they are old. The walk is bounded, skips node_modules and .git,
 * never follows links, and goes through verified folder descriptors like every other write.
 */
import { constants, type Dirent } from 'node:fs';
import { type FileHandle, lstat, open, readdir, unlink } from 'node:fs/promises';
import { RACE_FREE_FS, TEMP_SUFFIX } from './safe-fs';

/** `.<name>.<pid>.<12 hex>.warden-tmp` (write_file), `.<name>.<12 hex>.warden-tmp` (older versions). */
const WRITE_TEMP = new RegExp(`^\\..+?\\.(?:(\\d+)\\.)?[0-9a-f]{12}${TEMP_SUFFIX.replace('.', '\\.')}$`);
/** `<name>.warden-revert-<pid>` (checkpoint revert). */
const REVERT_TEMP = /^.+\.warden-revert-(\d+)$/;
const SKIP = new Set(['node_modules', '.git']);
/** A temp file whose writer may still be alive counts as abandoned after this long. */
const STALE_MS = 10 * 60_000;
/** Without a pid in the name there is no writer to ask; a write takes far less than this. */
const LEGACY_STALE_MS = 60_000;

export type SweepOptions = { maxEntries?: number; maxDepth?: number; now?: number };
export type SweepResult = { removed: string[]; truncated: boolean };

/**
 * Removes stale warden temp files under `root`; returns their project-relative paths.
 * Contract: never throws; unreadable folders are skipped; at most `maxEntries` entries are looked at.
 */
export async function sweepStaleTemps(root: string, options: SweepOptions = {}): Promise<SweepResult> {
  const state = {
    budget: options.maxEntries ?? 50_000,
    maxDepth: options.maxDepth ?? 24,
    now: options.now ?? Date.now(),
    removed: [] as string[],
    truncated: false,
  };
  try {
    await sweepFolder(root, '', 0, state);
  } catch {
    // The sweep is housekeeping: a folder that vanished or cannot be read is not a reason to fail start-up.
  }
  return { removed: state.removed, truncated: state.truncated };
}

type State = { budget: number; maxDepth: number; now: number; removed: string[]; truncated: boolean };

async function sweepFolder(path: string, rel: string, depth: number, state: State): Promise<void> {
  // Through a descriptor opened without following links, so a swapped folder cannot lead the sweep outside.
  const handle: FileHandle | undefined = RACE_FREE_FS
    ? await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)
    : undefined;
  const base = handle ? `/proc/self/fd/${handle.fd}` : path;
  try {
    let entries: Dirent[];
    try {
      entries = await readdir(base, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (--state.budget < 0) {
        state.truncated = true;
        return;
      }
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (SKIP.has(entry.name) || depth >= state.maxDepth) continue;
        await sweepFolder(`${base}/${entry.name}`, child, depth + 1, state).catch(() => undefined);
      } else if (
        entry.isFile() &&
        isStaleTemp(entry.name, await mtimeOf(`${base}/${entry.name}`), state.now)
      ) {
        await unlink(`${base}/${entry.name}`).then(
          () => state.removed.push(child),
          () => undefined,
        );
      }
    }
  } finally {
    await handle?.close();
  }
}

async function mtimeOf(path: string): Promise<number | undefined> {
  const info = await lstat(path).catch(() => undefined);
  return info?.isFile() ? info.mtimeMs : undefined;
}

/** True for a warden temp name whose writer is gone or which is old enough to be abandoned. */
export function isStaleTemp(name: string, mtimeMs: number | undefined, now: number): boolean {
  if (mtimeMs === undefined) return false;
  const match = WRITE_TEMP.exec(name) ?? REVERT_TEMP.exec(name);
  if (!match) return false;
  const pid = match[1] === undefined ? undefined : Number(match[1]);
  if (pid !== undefined && pid !== process.pid && !processAlive(pid)) return true;
  return now - mtimeMs > (pid === undefined ? LEGACY_STALE_MS : STALE_MS);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
