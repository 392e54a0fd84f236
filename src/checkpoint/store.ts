import type { PreImage } from '../tools/types';
import type { CheckpointMode, RevertPlan, RevertResult, TurnChange } from './types';

/** Which changes a revert covers: the latest `turns` turns, or one turn (optionally only some of its files). */
export type RevertTarget = { turns: number } | { turnId: string; paths?: readonly string[] };

/**
 * Where a session keeps the way back from its turns' changes: the shadow git repository, or (without
 * git) pre-image copies of the files warden's own tools write.
 * Contract: `beforeChange` and `recordPreImage` reject when the checkpoint cannot be kept, so the
 * change does not happen without a way back; the others never leave the project half-restored
 * silently — a file that cannot be put back is reported in `skipped`.
 */
export interface CheckpointStore {
  readonly mode: CheckpointMode;
  /**
   * Gets ready for the first checkpoint (the shadow repository opened, or created) without taking
   * one, while the person types. Contract: never throws; a failure is met again by `beforeChange`.
   */
  prepare(): void;
  /** Starts a turn; returns its id. */
  beginTurn(): string;
  /** Before a call that can change files (`label`: the tool). */
  beforeChange(label: string): Promise<void>;
  /** Before write_file replaces a file: its content as the tool read it (the copies fallback keeps it). */
  recordPreImage(absPath: string, pre?: PreImage): Promise<void>;
  /** Ends the turn; the files it changed, or undefined when it changed nothing. */
  endTurn(): Promise<{ turnId: string; changes: TurnChange[] } | undefined>;
  /** The files turn `turnId` changed. Contract: never rejects for an unknown turn (empty list). */
  turnChanges(turnId: string): Promise<TurnChange[]>;
  /** What `revert(target)` would do, without doing it. */
  plan(target: RevertTarget): Promise<RevertPlan>;
  revert(target: RevertTarget): Promise<RevertResult>;
  /** Resolves once no checkpoint is being taken (one may start when a card shows): the session waits for it when it closes. */
  settled(): Promise<void>;
}
