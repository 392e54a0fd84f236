import { lstat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
export { formatBytes } from '../../text/bytes';

/** What a tool needs to know about a path before touching it. */
export type PathInfo = {
  kind: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
  mode: number;
  mtimeMs: number;
};

/** lstat as a small record; `undefined` when nothing exists at `path`. Contract: other errors throw. */
export async function pathInfo(path: string): Promise<PathInfo | undefined> {
  try {
    const s = await lstat(path);
    const kind = s.isFile() ? 'file' : s.isDirectory() ? 'dir' : s.isSymbolicLink() ? 'symlink' : 'other';
    return { kind, size: s.size, mode: s.mode & 0o7777, mtimeMs: s.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Turns a Node fs error into one sentence the model can act on. */
export function describeFsError(err: unknown, shown: string): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return `${shown} does not exist.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: ${shown}.`;
    case 'EISDIR':
      return `${shown} is a directory.`;
    case 'ENOTDIR':
      return `A parent of ${shown} is a file, not a folder.`;
    case 'EEXIST':
      return `${shown} already exists (a file or a link was put there); nothing was written through it.`;
    case 'ELOOP':
      return `${shown} is a symbolic link; it is not followed.`;
    case 'ENOSPC':
      return `No space left on the device while writing ${shown}.`;
    case 'EROFS':
      return `${shown} is on a read-only file system.`;
    case 'ERACE':
      return `${shown} changed on disk while warden opened it (${(err as Error).message}); nothing was read or written. Try again; if it keeps happening, something is swapping folders or links in the project.`;
    case 'EROOTGONE':
      return `${(err as Error).message} Nothing was read or written, and warden does not recreate it; the session stops.`;
    default:
      return `${shown}: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** Project-relative path for messages: the fence gives '' for the root itself. */
export const shownPath = (relative: string): string => (relative === '' ? '.' : relative);

/** A path argument as Claude Code's hooks get it (`file_path`): absolute, from the project root. Never throws. */
export function absoluteFromRoot(root: string, path: unknown): string | undefined {
  if (typeof path !== 'string' || path === '') return undefined;
  return isAbsolute(path) ? path : resolve(root, path);
}
