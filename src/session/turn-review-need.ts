/**
 * Approved once is approved: in manual mode the turn review does not ask again for a
 * change whose every write the person approved on a card — the file now holds exactly the content the
 * card showed. It still asks in the auto modes (nobody saw those writes) and for anything a command
 * changed, deleted, or rewrote after the card (the content differs from what was approved).
 */
import type { Mode } from '../protocol';

/** One file the turn changed; `hash`: sha256 of its content now (absent when it is gone or unreadable). */
export type ReviewedChange = { path: string; kind: string; hash?: string };

export type ReviewNeedInput = {
  mode: Mode;
  changes: readonly ReviewedChange[];
  /** Path → sha256 of the content a person approved on a card for it, this turn. */
  approved: ReadonlyMap<string, string>;
};

/** Whether the review card must wait for the person (true), or is shown as a summary only. Pure. */
export function turnReviewBlocks(o: ReviewNeedInput): boolean {
  if (o.mode !== 'manual') return true;
  return o.changes.some(
    (c) => c.kind === 'deleted' || c.hash === undefined || o.approved.get(c.path) !== c.hash,
  );
}
