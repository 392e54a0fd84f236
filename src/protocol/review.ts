/** The turn review (the output gate): what a turn changed, as the core reports it and the review card shows it. */

/** What a turn did to one file. */
export type FileChangeKind = 'created' | 'modified' | 'deleted';

/**
 * One file a turn changed (path relative to the project, `/`-separated). `before`/`after`: its text on
 * each side (absent where the file did not exist, was binary, or too large to copy). `tooLarge`: its
 * earlier content was over the size cap, so it was listed, not copied, and cannot be restored.
 * `binary`: not text (no diff to show). `link`: a symbolic link (its target is the text).
 */
export type TurnChange = {
  path: string;
  kind: FileChangeKind;
  before?: string;
  after?: string;
  tooLarge?: boolean;
  binary?: boolean;
  link?: boolean;
  /** Why a revert cannot put this file back (over the size cap, left out of checkpoints, a damaged checkpoint). */
  notRestorable?: string;
  /** Changed during the turn, but not by its calls (another warden, the person's editor): shown, never reverted. */
  by?: 'someone-else';
  /**
   * Changed again by someone else after the turn changed it: a revert would throw that change away, so
   * it is kept unless a person approves the revert with both versions in front of them. `now`: the
   * file's text today (absent when it was deleted, or binary).
   */
  changedSince?: { now?: string; deleted?: true };
};

/** A review waiting for the person: the turn and every file it changed. */
export type TurnReview = { turnId: string; files: TurnChange[] };

/** The person's answer to a review: keep everything, or revert (all the turn's files, or `paths`). */
export type ReviewAction = 'keep' | 'revert';
