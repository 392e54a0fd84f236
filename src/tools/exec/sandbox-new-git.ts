/**
 * The one protected name a sandbox cannot keep a command from creating: a `.git` in a folder where
 * none was (`git init sub`, a `.git` file pointing elsewhere). An editor that opens repositories in
 * subfolders would run its `core.fsmonitor` outside any sandbox. So after each run, a `.git` that
 * appeared where the run could write is moved aside (kept, renamed, so git no longer sees it) and
 * the result says so; a person's approved card that listed it keeps it.
 */
import { type Dirent, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { inside, PROTECT_SCAN_LIMIT, type ProtectPlan } from './sandbox-protect';

/** A `.git` the run created, and where it was moved (undefined when it could not be). */
export type NewGit = { path: string; movedTo?: string };

/**
 * Finds the `.git` entries that appeared during a run outside the read-only paths and the lifted ones,
 * and renames each to `.git.warden-quarantine-<time>`.
 * Contract: never throws; a scan that was cut short checks nothing (it cannot tell new from unseen).
 */
export function quarantineNewGit(
  root: string,
  plan: ProtectPlan,
  lifted: readonly string[] = [],
  limit = PROTECT_SCAN_LIMIT,
): NewGit[] {
  if (plan.truncated) return [];
  const readOnly = new Set(plan.readOnly);
  const found: NewGit[] = [];
  const queue = [root];
  let seen = 0;
  for (let i = 0; i < queue.length && seen <= limit; i++) {
    let entries: Dirent[];
    try {
      entries = readdirSync(queue[i] as string, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++seen > limit) break;
      const path = join(queue[i] as string, entry.name);
      if (readOnly.has(path) || lifted.some((l) => inside(l, path))) continue;
      if (entry.name === '.git') found.push({ path });
      else if (entry.isDirectory() && entry.name !== 'node_modules') queue.push(path);
    }
  }
  const stamp = Date.now();
  for (const git of found) {
    try {
      const target = `${git.path}.warden-quarantine-${stamp}`;
      renameSync(git.path, target);
      git.movedTo = target;
    } catch {
      // Left in place; the result still names it.
    }
  }
  return found;
}
