import { closeSync, constants, fstatSync, openSync, readSync, readlinkSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import type { PathFence } from './guards/path-guard';

/** What reading a settings or instruction file gave. `refused`: it exists but is not a plain file we may read. */
export type SafeRead =
  | { kind: 'missing' }
  | { kind: 'ok'; text: string; path: string; bytes: number; truncated: boolean }
  | { kind: 'refused'; path: string; reason: string };

// O_NONBLOCK: opening a fifo for reading must not wait for a writer; fstat then refuses it.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Reads at most `cap` bytes of a regular file (a longer one comes back `truncated`). A fifo, a
 * device (`/dev/zero`), a socket or a folder is refused after `open`, without reading, so nothing
 * hangs and nothing endless is read. With `noFollow` a symlink as the last name is refused too.
 * Contract: never throws; a missing file (or a missing folder on the way) is `missing`.
 */
export function readRegularFile(
  path: string,
  cap: number,
  options: { noFollow?: boolean; inside?: string } = {},
): SafeRead {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS | (options.noFollow ? constants.O_NOFOLLOW : 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'refused', path, reason: 'it is a symbolic link' };
    return { kind: 'refused', path, reason: `it cannot be opened (${code ?? (err as Error).message})` };
  }
  try {
    // The open went by name; the descriptor says which file it really is (a swap in between is caught).
    if (options.inside !== undefined && !descriptorInside(fd, options.inside))
      return { kind: 'refused', path, reason: 'it is not inside the project (it moved while it was opened)' };
    const stat = fstatSync(fd);
    if (!stat.isFile())
      return { kind: 'refused', path, reason: `it is not a regular file (${kindOf(stat)})` };
    const buffer = Buffer.alloc(Math.min(cap + 1, Math.max(stat.size + 1, 1)));
    let length = 0;
    // A regular file may grow while it is read; never read past cap + 1.
    for (;;) {
      if (length === buffer.length) break;
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    const truncated = length > cap;
    const text = buffer.subarray(0, Math.min(length, cap)).toString('utf8');
    return { kind: 'ok', text, path, bytes: Math.min(length, cap), truncated };
  } catch (err) {
    return {
      kind: 'refused',
      path,
      reason: `it cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    };
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a project file through the path fence: its real path (symlinks followed) must be inside
 * the project, the file is opened at that real path without following a link again, and the
 * opened descriptor is checked to still be inside the project (a swap in between is caught).
 * Contract: never throws; outside, not regular, or unreadable is `refused` with the reason.
 */
export function readProjectFile(fence: PathFence, relativePath: string, cap: number): SafeRead {
  const verdict = fence.check(relativePath);
  if (!verdict.ok) return { kind: 'refused', path: relativePath, reason: verdict.reason };
  return readRegularFile(verdict.path, cap, { noFollow: true, inside: fence.root });
}

/** Whether an open descriptor's real path (via /proc) is inside `root`. */
function descriptorInside(fd: number, root: string): boolean {
  let real: string;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // No /proc (macOS): the no-follow open at the fenced real path is the check we have.
    return true;
  }
  const rel = relative(root, real);
  return rel !== '' && rel.split(sep)[0] !== '..' && !isAbsolute(rel);
}

function kindOf(stat: ReturnType<typeof fstatSync>): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}
