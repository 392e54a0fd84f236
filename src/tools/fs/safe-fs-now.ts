/**
 * safe-fs.ts's atomic write without leaving the current task, for the write a person has just
 * approved (approve key → file on disk). Each thread-pool call ends the task, and the event
 * loop then runs what waits first: the full-screen render of the closing card (5–7 ms), which the
 * rename would wait behind. A small file's open, write, fchmod and rename take tens of microseconds
 * each, plus the fsync itself (~0.3–0.5 ms on this machine's ext4) — less than one such render — so
 * they are made synchronously here, with the same checks in the same order (safe-fs.ts holds them;
 * only the calls differ; its reads of small files are synchronous already). Content over
 * SYNC_READ_BYTES, a folder still to create, a system without /proc, or a second write while one is
 * still unresolved take safe-fs.ts's own path. The folder's fsync after the rename goes to the thread
 * pool: it does not delay the file appearing, and the write still resolves only after it.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fsync,
  fsyncSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname } from 'node:path';
import {
  type FdOps,
  type FencedPath,
  RACE_FREE_FS,
  replaceInFolder,
  SYNC_READ_BYTES,
  verifyFd,
  type WriteHooks,
  writeFileSafely,
} from './safe-fs';

const C = constants;

/** Content up to this size is written synchronously: the size safe-fs.ts reads synchronously. */
export const NOW_MAX_BYTES = SYNC_READ_BYTES;

/** The descriptor calls, synchronous: each returns (or throws) before the next line runs. */
const NOW_OPS: FdOps = {
  open: (path, flags, mode) => openSync(path, flags, mode),
  write: (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
  fchmod: (fd, mode) => fchmodSync(fd, mode),
  fsync: (fd) => fsyncSync(fd),
  close: (fd) => closeSync(fd),
  rename: (from, to) => renameSync(from, to),
  unlink: (path) => unlinkSync(path),
};

/** Synchronous writes not yet resolved (their folder's fsync still running). */
let writing = 0;

/**
 * `writeFileSafely`, synchronous up to the rename for content up to NOW_MAX_BYTES into an existing
 * folder, while no other such write is unresolved: a burst of parallel writes (sub-agents, approve-all)
 * then holds the event loop for one write, not for all of them — the rest go to the thread pool.
 * Contract: as writeFileSafely — on failure nothing at `target.path` changed and the temp file is
 * gone; never writes outside the folder the fence approved; resolves once the folder is flushed.
 */
export async function writeFileSafelyNow(
  target: FencedPath & { root: string },
  bytes: Buffer,
  mode?: number,
  hooks: WriteHooks = {},
): Promise<void> {
  if (!RACE_FREE_FS || bytes.length > NOW_MAX_BYTES || writing > 0)
    return writeFileSafely(target, bytes, mode, hooks);
  const folder = dirname(target.path);
  let dir: number;
  try {
    dir = openSync(folder, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
  } catch (err) {
    // Folders to create: safe-fs.ts walks down from the root, one verified step at a time.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return writeFileSafely(target, bytes, mode, hooks);
    throw err;
  }
  writing += 1;
  try {
    verifyFd(dir, folder, target.root);
    await replaceInFolder(NOW_OPS, `/proc/self/fd/${dir}`, basename(target.path), bytes, mode, hooks);
    // The rename is durable only once the folder is flushed; some file systems refuse fsync on folders.
    await new Promise<void>((resolve) => fsync(dir, () => resolve()));
  } finally {
    writing -= 1;
    closeSync(dir);
  }
}
