/**
 * Race-free file access for warden's own tools. The path fence resolves a path once; a command
 * running meanwhile can swap a folder for a link (renameat2 RENAME_EXCHANGE) so that opening the
 * same path again lands outside the project. So nothing here trusts a path twice:
 * - a read opens the file (O_NOFOLLOW, O_NONBLOCK), then asks the kernel where the opened
 *   descriptor really is (`/proc/self/fd/N`) and reads only if that is the fenced path;
 * - a write opens the parent folder, verifies it the same way (or walks down from the verified
 *   root one O_NOFOLLOW step at a time, creating missing folders), then creates the temp file and
 *   renames it through `/proc/self/fd/D/…`, which the kernel resolves to that same folder inode;
 *   a rename replaces the name, never an inode in place, so a hard link to an outside file keeps
 *   the outside content.
 * Without `/proc/self/fd` (not Linux) both fall back to opening by path with O_NOFOLLOW: the
 * fence's check still holds, but a swap between check and open is not caught there.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fchmod as fsFchmod,
  fstatSync,
  fsync as fsFsync,
  lstatSync,
  openSync,
  read as fsRead,
  readSync,
  readlinkSync,
  close as fsClose,
  open as fsOpen,
  write as fsWrite,
} from 'node:fs';
import { type FileHandle, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, relative, sep } from 'node:path';

const C = constants;
/** True where descriptors can be verified and used as folders (Linux with /proc). */
export const RACE_FREE_FS = process.platform === 'linux' && existsSync('/proc/self/fd');

/** A path the fence approved: its real absolute path, and the real project root when known. */
export type FencedPath = { path: string; root?: string };

/** What a safe read found. Contract: races, a vanished root and I/O errors throw (see `SafeFsCode`). */
export type FileRead =
  | { kind: 'file'; bytes: Buffer; mode: number; size: number; mtimeMs: number }
  | { kind: 'absent' }
  | { kind: 'too-large'; size: number; mtimeMs: number }
  | { kind: 'not-file'; what: 'dir' | 'other' };

/** Error codes of our own, next to the errno codes Node gives (`describeFsError` words both). */
export type SafeFsCode = 'ERACE' | 'EROOTGONE';

/** Suffix of every temp file an atomic write creates; the start-up sweep removes stale ones. */
export const TEMP_SUFFIX = '.warden-tmp';

/**
 * Reads a fenced file through a verified descriptor. Contract: never reads a file other than `target.path`.
 * Opening, checking and reading a small file are synchronous: each is a few microseconds on a local
 * disk, while a trip through the thread pool costs ~30-40 µs of the main thread per call (profiled in
 * a burst of 5,000 reads, where it was the largest single cost). Files over SYNC_READ_BYTES are read
 * asynchronously, so a large read never stalls the screen. `/proc/self/fd` is the kernel's own table.
 */
export async function readFileSafely(target: FencedPath, maxBytes: number): Promise<FileRead> {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in must not hang the read; O_NOCTTY: a tty must not become ours.
    fd = openSync(target.path, C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK | C.O_NOCTTY);
  } catch (err) {
    if (code(err) === 'ENOENT') {
      if (target.root) assertRootExists(target.root);
      return { kind: 'absent' };
    }
    if (code(err) === 'ENXIO') return { kind: 'not-file', what: 'other' };
    throw err;
  }
  try {
    verifyFd(fd, target.path, target.root);
    const info = fstatSync(fd);
    if (info.isDirectory()) return { kind: 'not-file', what: 'dir' };
    if (!info.isFile()) return { kind: 'not-file', what: 'other' };
    if (info.size > maxBytes) return { kind: 'too-large', size: info.size, mtimeMs: info.mtimeMs };
    const bytes =
      (info.size <= SYNC_READ_BYTES ? readSmall(fd, info.size, maxBytes) : undefined) ??
      (await readBounded(fd, info.size, maxBytes));
    if (bytes.length > maxBytes) return { kind: 'too-large', size: bytes.length, mtimeMs: info.mtimeMs };
    return { kind: 'file', bytes, mode: info.mode & 0o7777, size: bytes.length, mtimeMs: info.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Files up to this size are read synchronously (see `readFileSafely`). */
export const SYNC_READ_BYTES = 64 * 1024;

/**
 * A small file whole, in one synchronous read of `size` + 1 bytes (bounded by maxBytes + 1): a short
 * read is its end, as for `readBounded`. Undefined when it grew since its size was taken (then
 * `readBounded` reads it again from the start).
 */
function readSmall(fd: number, size: number, maxBytes: number): Buffer | undefined {
  const want = Math.min(size + 1, maxBytes + 1);
  const buffer = Buffer.allocUnsafe(want);
  const bytesRead = readSync(fd, buffer, 0, want, 0);
  return bytesRead < want ? buffer.subarray(0, bytesRead) : undefined;
}

const fdRead = (fd: number, buffer: Buffer, length: number, position: number): Promise<number> =>
  new Promise((resolve, reject) =>
    fsRead(fd, buffer, 0, length, position, (err, n) => (err ? reject(err) : resolve(n))),
  );

/**
 * Opens an existing fenced folder as a descriptor verified to be exactly `target.path`; read it
 * through `/proc/self/fd/<fd>` (see `folderPath`). Contract: throws ENOENT, ENOTDIR, ELOOP or ERACE.
 */
export async function openFolderSafely(target: FencedPath): Promise<FileHandle> {
  const handle = await open(target.path, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
  try {
    await verifyDescriptor(handle, target.path, target.root);
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** The path through which a folder opened by `openFolderSafely` is used (its own path without /proc). */
export const folderPath = (handle: FileHandle, path: string): string =>
  RACE_FREE_FS ? `/proc/self/fd/${handle.fd}` : path;

/** Test hooks for `writeFileSafely`. */
export type WriteHooks = { rename?: (from: string, to: string) => Promise<void> };

/**
 * Replaces or creates a fenced file atomically: temp file beside it, fsync, rename, fsync the folder.
 * Missing folders are created from the root down; the root itself is never created.
 * `mode`: permission bits for the file (the replaced file's, to keep them); default 0o666 & ~umask.
 * Contract: on failure nothing at `target.path` changed and the temp file is gone; never writes
 * outside the folder the fence approved.
 */
export async function writeFileSafely(
  target: FencedPath & { root: string },
  bytes: Buffer,
  mode?: number,
  hooks: WriteHooks = {},
): Promise<void> {
  const name = basename(target.path);
  const dir = RACE_FREE_FS
    ? await openFolder(target.root, dirname(target.path))
    : await mkdirByPath(target.root, dirname(target.path));
  const base = typeof dir === 'string' ? dir : `/proc/self/fd/${dir.fd}`;
  try {
    await replaceInFolder(POOL_OPS, base, name, bytes, mode, hooks);
  } catch (err) {
    if (typeof dir !== 'string') await dir.close();
    throw err;
  }
  if (typeof dir === 'string') return;
  // The rename is durable only once the folder is flushed; some file systems refuse fsync on folders.
  await dir.sync().catch(() => undefined);
  await dir.close();
}

/**
 * The descriptor calls of an atomic write's file part: through the thread pool (`POOL_OPS`), or
 * synchronous (safe-fs-now.ts). Awaiting a plain value costs a microtask, never a turn of the event loop.
 */
export type FdOps = {
  open(path: string, flags: number, mode: number): number | Promise<number>;
  write(fd: number, buffer: Buffer, offset: number, length: number): number | Promise<number>;
  fchmod(fd: number, mode: number): void | Promise<void>;
  fsync(fd: number): void | Promise<void>;
  close(fd: number): void | Promise<void>;
  rename(from: string, to: string): void | Promise<void>;
  unlink(path: string): void | Promise<void>;
};

/** A callback call as a promise. */
const call = <T>(run: (done: (err: Error | null, value: T) => void) => void): Promise<T> =>
  new Promise((resolve, reject) => run((err, value) => (err ? reject(err) : resolve(value))));
const none = (done: (err: Error | null, value: undefined) => void) => (err: Error | null) =>
  done(err, undefined);

/** The descriptor calls through libuv's thread pool. */
const POOL_OPS: FdOps = {
  open: (path, flags, mode) => call((done) => fsOpen(path, flags, mode, done)),
  write: (fd, buffer, offset, length) => call((done) => fsWrite(fd, buffer, offset, length, null, done)),
  fchmod: (fd, mode) => call((done) => fsFchmod(fd, mode, none(done))),
  fsync: (fd) => call((done) => fsFsync(fd, none(done))),
  close: (fd) => call((done) => fsClose(fd, none(done))),
  rename: (from, to) => rename(from, to),
  unlink: (path) => unlink(path),
};

/**
 * The file part of an atomic write, in the folder reached through `base`: temp file, its bytes, its
 * mode, fsync, then the rename over `name`. Contract: on failure the temp file is gone and `name` unchanged.
 */
export async function replaceInFolder(
  ops: FdOps,
  base: string,
  name: string,
  bytes: Buffer,
  mode: number | undefined,
  hooks: WriteHooks,
): Promise<void> {
  const temp = `${base}/${tempName(name)}`;
  try {
    const fd = await ops.open(temp, C.O_CREAT | C.O_EXCL | C.O_WRONLY | C.O_NOFOLLOW, 0o666);
    try {
      for (let offset = 0; offset < bytes.length; ) {
        const n = await ops.write(fd, bytes, offset, bytes.length - offset);
        if (n <= 0) throw new Error(`short write: ${offset} of ${bytes.length} bytes`);
        offset += n;
      }
      if (mode !== undefined) await ops.fchmod(fd, mode);
      await ops.fsync(fd);
    } finally {
      await ops.close(fd);
    }
    await (hooks.rename ?? ops.rename)(temp, `${base}/${name}`);
  } catch (err) {
    try {
      await ops.unlink(temp);
    } catch {
      // Never created, or already gone: nothing is left behind either way.
    }
    throw err;
  }
}

/**
 * Removes a fenced file (a revert of a created file) by its name in the verified parent folder.
 * Contract: an absent file (or folder) is fine; never removes anything outside the fenced folder.
 */
export async function removeFileSafely(target: FencedPath & { root: string }): Promise<void> {
  let dir: FileHandle;
  try {
    dir = await openFolderSafely({ path: dirname(target.path), root: target.root });
  } catch (err) {
    if (code(err) === 'ENOENT') return;
    throw err;
  }
  try {
    await unlink(`${folderPath(dir, dirname(target.path))}/${basename(target.path)}`).catch(
      (err: unknown) => {
        if (code(err) !== 'ENOENT') throw err;
      },
    );
  } finally {
    await dir.close();
  }
}

/** `.<name>.<pid>.<12 hex>.warden-tmp`; the pid lets the sweep tell a crashed writer from a live one. */
function tempName(name: string): string {
  // Keeps the temp name under NAME_MAX (255 bytes) for long names.
  const short = Buffer.byteLength(name) > 180 ? Buffer.from(name).subarray(0, 180).toString('utf8') : name;
  return `.${short}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
}

/**
 * Opens `folder` (inside `root`) for creating an entry in it, creating missing folders from the root
 * down without following a link: a verified descriptor, or (without /proc) the folder's path.
 * Used by checkpoint restores that put back a symbolic link. Contract: throws ERACE/ELOOP rather than leave the project.
 */
export async function openFolderForWrite(root: string, folder: string): Promise<FileHandle | string> {
  return RACE_FREE_FS ? openFolder(root, folder) : mkdirByPath(root, folder);
}

/** Opens `folder` (inside `root`) as a verified descriptor, creating missing folders below the root. */
async function openFolder(root: string, folder: string): Promise<FileHandle> {
  try {
    return await openFolderSafely({ path: folder, root });
  } catch (err) {
    if (code(err) !== 'ENOENT') throw err;
  }
  return walkFromRoot(root, segmentsBelow(root, folder));
}

/**
 * Opens the root, verifies it, then steps down one name at a time through `/proc/self/fd/D/<name>`
 * with O_NOFOLLOW: each step is bound to the folder inode of the step before, so no link is followed.
 */
async function walkFromRoot(root: string, segments: string[]): Promise<FileHandle> {
  let dir: FileHandle;
  try {
    dir = await open(root, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
  } catch (err) {
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') throw rootGone(root);
    throw err;
  }
  try {
    await verifyDescriptor(dir, root, root);
    for (const segment of segments) {
      const step = `/proc/self/fd/${dir.fd}/${segment}`;
      await mkdir(step).catch((err: unknown) => {
        if (code(err) !== 'EEXIST') throw err;
      });
      const next = await open(step, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW).catch((err: unknown) => {
        throw code(err) === 'ELOOP'
          ? raced(`${segment} became a symbolic link while its folder was being created`)
          : err;
      });
      await dir.close();
      dir = next;
    }
    return dir;
  } catch (err) {
    await dir.close();
    throw err;
  }
}

/** The fallback without /proc: mkdir -p below a root that must still exist. */
async function mkdirByPath(root: string, folder: string): Promise<string> {
  assertRootExists(root);
  segmentsBelow(root, folder);
  await mkdir(folder, { recursive: true });
  return folder;
}

/** Names from `root` down to `folder`. Contract: throws unless `folder` is `root` or below it. */
function segmentsBelow(root: string, folder: string): string[] {
  const rel = relative(root, folder);
  const segments = rel === '' ? [] : rel.split(sep);
  if (segments.some((s) => s === '..' || s === '' || s === '.') || rel.startsWith(sep)) {
    throw raced(`${folder} is not inside the project ${root}`);
  }
  return segments;
}

/** Throws ERACE unless the descriptor is, right now, exactly `expected` (and inside `root`). */
async function verifyDescriptor(
  handle: FileHandle,
  expected: string,
  root: string | undefined,
): Promise<void> {
  verifyFd(handle.fd, expected, root);
}

/** `verifyDescriptor` for a plain descriptor; `/proc/self/fd` is kernel memory, so it is read synchronously. */
export function verifyFd(fd: number, expected: string, root: string | undefined): void {
  if (!RACE_FREE_FS) return;
  const real = readlinkSync(`/proc/self/fd/${fd}`);
  if (real !== expected || (root !== undefined && !isInside(root, real))) {
    throw raced('it changed on disk while being opened (a folder or link was swapped)');
  }
}

/** True when `path` is `root` or below it, compared by path segments (never by string prefix). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/** Synchronous like the read it guards: one lstat of a folder, never worth a trip to the thread pool. */
function assertRootExists(root: string): void {
  let folder = false;
  try {
    folder = lstatSync(root).isDirectory();
  } catch {
    // Gone or unreadable: not a root to read or write in either way.
  }
  if (!folder) throw rootGone(root);
}

/**
 * Reads up to maxBytes + 1 bytes (so a file that grew past the cap is seen as too large). The first
 * read asks for one byte more than `size`: a short read that already holds `size` bytes is the end
 * of the file, so a small file costs one read and a buffer of its own size (not 64 KiB, twice).
 */
async function readBounded(fd: number, size: number, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = Math.min(total === 0 ? size + 1 : Math.max(size - total, 64 * 1024), maxBytes + 1 - total);
    if (want <= 0) break;
    const buffer = Buffer.allocUnsafe(want);
    const bytesRead = await fdRead(fd, buffer, want, total);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === want ? buffer : buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (bytesRead < want && total >= size) break;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

function raced(detail: string): NodeJS.ErrnoException {
  return Object.assign(new Error(detail), { code: 'ERACE' satisfies SafeFsCode });
}

function rootGone(root: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`The project folder ${root} no longer exists.`), {
    code: 'EROOTGONE' satisfies SafeFsCode,
  });
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}
