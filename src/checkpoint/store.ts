import type { PreImage } from '../tools/types';
import type { RevertOptions, RevertTarget } from '../tools/types';
import type { CheckpointMode, RevertPlan, RevertResult, TurnChange } from './types';

// Which changes a revert covers and how: declared beside the tools' other ports (revert_turn calls them).
export type { RevertOptions, RevertTarget } from '../tools/types';

/**
 * Called once the call a checkpoint was taken for has ended: resolves when the checkpoint after it is
 * taken. Contract: never rejects (a failed one is closed by the turn's next checkpoint).
 */
export type AfterChange = () => Promise<void>;

/** What ending a turn found: its own changes, and why its way back is incomplete when it is. */
export type EndedTurn = { turnId: string; changes: TurnChange[]; incomplete?: string };

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
  /**
   * Before a call that can change files (`label`: the tool): the checkpoint just before it runs. The
   * returned function is called when the call has ended, for the checkpoint just after it: what
   * changed between the two is the turn's, what changed between calls is someone else's. `ahead`:
   * a warm-up while a card shows (the call may never run): no step of the turn.
   */
  beforeChange(label: string, ahead?: boolean): Promise<AfterChange | undefined>;
  /** Before write_file replaces a file: its content as the tool read it (the copies fallback keeps it). */
  recordPreImage(absPath: string, pre?: PreImage): Promise<void>;
  /** Ends the turn; the files it changed, or undefined when it changed nothing. */
  endTurn(): Promise<EndedTurn | undefined>;
  /** The files turn `turnId` changed. Contract: never rejects for an unknown turn (empty list). */
  turnChanges(turnId: string): Promise<TurnChange[]>;
  /** What `revert(target)` would do, without doing it. */
  plan(target: RevertTarget): Promise<RevertPlan>;
  revert(target: RevertTarget, options?: RevertOptions): Promise<RevertResult>;
  /** Resolves once no checkpoint is being taken (one may start when a card shows): the session waits for it when it closes. */
  settled(): Promise<void>;
}
