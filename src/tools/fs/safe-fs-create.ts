/**
 * New files and folders for create_project: made where a write would make them (a verified folder
 * descriptor reached from the root, safe-fs.ts), and only if nothing has the name yet — a file, a
 * folder or a link put there meanwhile is EEXIST, never written through.
 */
import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { type FencedPath, openFolderForWrite } from './safe-fs';

/**
 * Creates a fenced file that must not exist yet (create_project), in a folder reached like a
 * write's: a verified descriptor, missing folders made from the root down without following a link.
 * O_EXCL|O_NOFOLLOW: a file or a link already at the name is EEXIST, never written through.
 * Contract: throws (EEXIST, ERACE, ELOOP …) rather than write outside the folder the fence approved.
 */
export async function createFileSafely(target: FencedPath & { root: string }, bytes: Buffer): Promise<void> {
  const dir = await openFolderForWrite(target.root, dirname(target.path));
  const base = typeof dir === 'string' ? dir : `/proc/self/fd/${dir.fd}`;
  try {
    const file = await open(
      `${base}/${basename(target.path)}`,
      constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW,
      0o666,
    );
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
  } finally {
    if (typeof dir !== 'string') await dir.close();
  }
}

/**
 * Creates a fenced folder that must not exist yet, by its name in its verified parent (mkdir is
 * atomic and never follows a link at the name). Contract: false when anything already has the name.
 */
export async function createFolderSafely(target: FencedPath & { root: string }): Promise<boolean> {
  const dir = await openFolderForWrite(target.root, dirname(target.path));
  const base = typeof dir === 'string' ? dir : `/proc/self/fd/${dir.fd}`;
  try {
    await mkdir(`${base}/${basename(target.path)}`);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    if (typeof dir !== 'string') await dir.close();
  }
}
