import type { CoreCommand, TurnChange } from '../../src/protocol';
import type { ReviewKeyAction } from '../keys/keymap';

/** The review card's own state: the file under the cursor and the files chosen for reverting. */
export type ReviewState = { cursor: number; selected: readonly string[] };

export const INITIAL_REVIEW: ReviewState = { cursor: 0, selected: [] };

/** What a key does: the next state, and the command to send (keep, revert chosen files, revert the turn). */
export type ReviewStep = { state: ReviewState; send?: CoreCommand };

/**
 * The review card's reducer (pure). `r` reverts the selected files, or the one under the cursor
 * when none is selected; files too large to restore are never sent (the core could not put them back).
 */
export function reviewStep(
  s: ReviewState,
  action: ReviewKeyAction,
  turnId: string,
  files: readonly TurnChange[],
): ReviewStep {
  const last = Math.max(0, files.length - 1);
  const cursor = Math.min(s.cursor, last);
  const here = files[cursor];
  switch (action) {
    case 'up':
      return { state: { ...s, cursor: Math.max(0, cursor - 1) } };
    case 'down':
      return { state: { ...s, cursor: Math.min(last, cursor + 1) } };
    case 'toggle': {
      if (!here || !revertable(here)) return { state: { ...s, cursor } };
      const on = s.selected.includes(here.path);
      return {
        state: {
          cursor,
          selected: on ? s.selected.filter((p) => p !== here.path) : [...s.selected, here.path],
        },
      };
    }
    case 'revert_selected': {
      const paths = s.selected.length > 0 ? [...s.selected] : here && revertable(here) ? [here.path] : [];
      if (paths.length === 0) return { state: { ...s, cursor } };
      return { state: { ...s, cursor }, send: { type: 'review_turn', turnId, action: 'revert', paths } };
    }
    case 'revert_all':
      return { state: { ...s, cursor }, send: { type: 'review_turn', turnId, action: 'revert' } };
    case 'keep':
      return { state: { ...s, cursor }, send: { type: 'review_turn', turnId, action: 'keep' } };
  }
}

/** A file a revert can put back: not over the cap, not left out of checkpoints, and the turn's own. */
function revertable(f: TurnChange): boolean {
  return !f.tooLarge && !f.notRestorable && f.by !== 'someone-else';
}
