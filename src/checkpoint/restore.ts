/**
 * Puts files back from a checkpoint, through the same race-free operations write_file uses
 * (safe-fs.ts): a file is written beside itself and renamed into a folder verified to be inside the
 * project; a link is re-created as a link (never followed); a file that did not exist is unlinked by
 * its name in a verified folder. Nothing is written through a link or outside the project.
 */
import { randomBytes } from 'node:crypto';
import { rename, symlink, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TEMP_SUFFIX, openFolderForWrite, removeFileSafely, writeFileSafely } from '../tools/fs/safe-fs';

/** What one path goes back to. */
export type RestoreTarget =
  | { kind: 'file'; bytes: Buffer; mode: number }
  | { kind: 'link'; target: string }
  | { kind: 'absent' };

/** The file operations a restore uses; tests pass fakes to show a failure is reported, not thrown. */
export type RestoreFs = {
  writeFile(root: string, abs: string, bytes: Buffer, mode: number): Promise<void>;
  writeLink(root: string, abs: string, target: string): Promise<void>;
  remove(root: string, abs: string): Promise<void>;
};

export const SAFE_RESTORE_FS: RestoreFs = {
  writeFile: (root, abs, bytes, mode) => writeFileSafely({ path: abs, root }, bytes, mode),
  writeLink: writeLinkSafely,
  remove: (root, abs) => removeFileSafely({ path: abs, root }),
};

/** Restores one root-relative path. Contract: throws on any failure; the caller reports it per file. */
export async function restorePath(
  root: string,
  path: string,
  target: RestoreTarget,
  fs: RestoreFs = SAFE_RESTORE_FS,
): Promise<'restored' | 'removed'> {
  const abs = join(root, path);
  if (target.kind === 'absent') {
    await fs.remove(root, abs);
    return 'removed';
  }
  if (target.kind === 'link') await fs.writeLink(root, abs, target.target);
  else await fs.writeFile(root, abs, target.bytes, target.mode);
  return 'restored';
}

/** Creates (or replaces) a symbolic link by its name in a verified folder: temp link, then rename. */
async function writeLinkSafely(root: string, abs: string, target: string): Promise<void> {
  const dir = await openFolderForWrite(root, dirname(abs));
  const base = typeof dir === 'string' ? dir : `/proc/self/fd/${dir.fd}`;
  const temp = `${base}/.${basename(abs).slice(0, 180)}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
  try {
    await symlink(target, temp);
    await rename(temp, `${base}/${basename(abs)}`);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  } finally {
    if (typeof dir !== 'string') await dir.close();
  }
}
