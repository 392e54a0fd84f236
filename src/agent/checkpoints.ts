/**
 * The session's checkpoints: the shadow git repository of the project (src/checkpoint/) when git is
 * installed, otherwise pre-image copies of warden's own writes — and the session says which.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findGit } from '../checkpoint/git-env';
import { GitCheckpoints } from '../checkpoint/git-checkpoints';
import { PreImageStore, type RevertFiles } from '../checkpoint/pre-image-store';
import type { RestoreFs } from '../checkpoint/restore';
import type { CheckpointStore } from '../checkpoint/store';

export type { CheckpointStore, RevertTarget } from '../checkpoint/store';
export type { RevertFiles } from '../checkpoint/pre-image-store';
export type { CheckpointMode, RevertPlan, RevertResult, TurnChange } from '../checkpoint/types';
export { PreImageStore } from '../checkpoint/pre-image-store';

/** Files over this size are listed in a checkpoint, not copied. */
export const DEFAULT_CHECKPOINT_MAX_FILE_BYTES = 5 * 1024 * 1024;

export type CheckpointOptions = {
  home: string;
  root: string;
  sessionId: string;
  /** Race-free writes for the copies fallback (safe-fs.ts bound to the root). */
  files: RevertFiles;
  /** Root-relative paths never checkpointed (WARDEN_HOME inside the project). */
  exclude?: readonly string[];
  maxFileBytes?: number;
  /** The git binary; found on PATH when absent; `null` forces the fallback (tests). */
  git?: string | null;
  restoreFs?: RestoreFs;
};

/** `$WARDEN_HOME/checkpoints/<project-id>`: one shadow repository per project root. */
export function projectCheckpointDir(home: string, root: string): string {
  const id = createHash('sha256').update(root).digest('hex').slice(0, 16);
  return join(home, 'checkpoints', id);
}

/**
 * Picks the store. Contract: never throws — not for a missing git (the copies fallback says why in
 * `mode`), nor for a WARDEN_HOME that cannot be written (the checkpoints then fail, closed).
 */
export function createCheckpointStore(o: CheckpointOptions): CheckpointStore {
  const git = o.git === null ? undefined : (o.git ?? findGit());
  if (!git)
    return new PreImageStore(
      join(o.home, 'checkpoints', o.sessionId),
      o.files,
      'git was not found on PATH',
      o.root,
    );
  const dir = projectCheckpointDir(o.home, o.root);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'project.json'), `${JSON.stringify({ root: o.root })}\n`, { mode: 0o600 });
  } catch {
    // A full or read-only WARDEN_HOME must not stop the session from starting (it threw here, and
    // warden ended with a bare ENOSPC): the first checkpoint then fails, so file-changing calls are
    // refused (checkpoint_failed: no checkpoint, no change) while reads run.
  }
  return new GitCheckpoints({
    dir,
    root: o.root,
    git,
    sessionId: o.sessionId,
    maxFileBytes: o.maxFileBytes ?? DEFAULT_CHECKPOINT_MAX_FILE_BYTES,
    ...(o.exclude ? { exclude: o.exclude } : {}),
    ...(o.restoreFs ? { fs: o.restoreFs } : {}),
  });
}
