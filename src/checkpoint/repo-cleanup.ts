/**
 * What a warden killed mid-checkpoint, or a checkpoint that failed, leaves in the shadow repository:
 * git's locks and its half-written objects. Each would fail or fill every later checkpoint.
 */
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Git's lock files in the shadow repository; one left by a killed warden would fail every checkpoint. */
const LOCKS = ['index.lock', 'config.lock', 'HEAD.lock', join('refs', 'heads', 'checkpoints.lock')];
/** Older than this, no git of a live warden holds it: a first checkpoint of 5,000 files takes seconds. */
export const STALE_LOCK_MS = 2 * 60_000;

/**
 * Takes away git's locks that a warden killed mid-checkpoint left behind. A fresh one may belong to
 * another warden on the same project and stays: that checkpoint then fails closed, and says why.
 */
export function removeStaleLocks(gitDir: string): void {
  removeLocks(gitDir, (mtimeMs) => Date.now() - mtimeMs > STALE_LOCK_MS);
}

/** Removes the locks `pick` (by modification time) names. Contract: never throws. */
export function removeLocks(gitDir: string, pick: (mtimeMs: number) => boolean): void {
  for (const name of LOCKS) {
    const path = join(gitDir, name);
    try {
      if (pick(lstatSync(path).mtimeMs)) rmSync(path, { force: true });
    } catch {
      // No lock there.
    }
  }
}

/** Git's temporary object files: a loose object or a pack being written, a quarantine folder. */
const TEMP_OBJECT = /^(?:tmp_obj_|tmp_pack_|tmp_idx_|incoming-)/;

/**
 * Removes git's temporary objects that `pick` (by modification time) names: after a checkpoint
 * failed, the ones it was writing; at start, old ones a warden killed mid-write left. A young one at
 * start may be another warden's, being written, and stays. Contract: never throws.
 */
export function removeTempObjects(gitDir: string, pick: (mtimeMs: number) => boolean): void {
  const objects = join(gitDir, 'objects');
  let folders: string[];
  try {
    folders = readdirSync(objects);
  } catch {
    return;
  }
  for (const folder of ['', ...folders.filter((f) => /^[0-9a-f]{2}$/.test(f) || f === 'pack')]) {
    let names: string[];
    try {
      names = readdirSync(join(objects, folder));
    } catch {
      continue;
    }
    for (const name of names) {
      if (!TEMP_OBJECT.test(name)) continue;
      const path = join(objects, folder, name);
      try {
        if (pick(lstatSync(path).mtimeMs)) rmSync(path, { recursive: true, force: true });
      } catch {
        // Gone meanwhile (git renamed it into place).
      }
    }
  }
}
