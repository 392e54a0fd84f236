export type { FileChangeKind, TurnChange } from '../protocol/review';
// What a revert reaches: declared beside the tools' other ports (revert_turn calls them).
export type { RevertPlan, RevertResult } from '../tools/types';

/** A file over the size cap at a checkpoint: listed with its size and time, not copied. */
export type LargeFile = { path: string; size: number; mtimeMs: number };

/** One checkpoint: a commit of the shadow repository, and the files it listed instead of copying. */
export type Checkpoint = { commit: string; large: LargeFile[] };

/** Which way checkpoints are kept: the shadow git repository, or pre-image copies of written files. */
export type CheckpointMode = { kind: 'git'; dir: string } | { kind: 'copies'; reason: string };
