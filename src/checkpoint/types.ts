import type { TurnChange } from '../protocol/review';

export type { FileChangeKind, TurnChange } from '../protocol/review';

/** A file over the size cap at a checkpoint: listed with its size and time, not copied. */
export type LargeFile = { path: string; size: number; mtimeMs: number };

/** One checkpoint: a commit of the shadow repository, and the files it listed instead of copying. */
export type Checkpoint = { commit: string; large: LargeFile[] };

/** What reverting did: files written back, files removed, files it could not restore (and why). */
export type RevertResult = {
  restored: string[];
  removed: string[];
  skipped: { path: string; reason: string }[];
  turns: number;
};

/** What reverting would do, for the card shown before it runs. */
export type RevertPlan = { turns: number; changes: TurnChange[] };

/** Which way checkpoints are kept: the shadow git repository, or pre-image copies of written files. */
export type CheckpointMode = { kind: 'git'; dir: string } | { kind: 'copies'; reason: string };
