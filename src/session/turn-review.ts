/**
 * The output gate: at the end of a turn that changed files — by any tool, commands
 * included — the session reports the changeset (`turn_changes`, always) and, when reviews are on,
 * asks the person to review it (`turn_review_requested`). Reverting from the review goes through the
 * gate as `revert_turn`, like /undo: a card unless a rule allows it, and an audit line either way.
 */
import type { CheckpointStore } from '../agent/checkpoints';
import type { Gate } from '../gate/gate';
import type { CoreEvent, Mode } from '../protocol';
import { type ApprovedWrites, currentHash } from './approved-writes';
import { turnReviewBlocks } from './turn-review-need';

export type TurnReviewDeps = {
  checkpoints: CheckpointStore;
  gate: Gate;
  emit: (event: CoreEvent) => void;
  /** Show the review card (the person's config; off in headless runs). */
  reviewTurns: boolean;
  /** revert_turn's name, as the composition root built it. */
  revertTool: string;
  /** The writes a person approved on cards this turn, the mode now and the project root. */
  approved?: ApprovedWrites;
  mode?: () => Mode;
  root?: string;
};

export class TurnReviews {
  constructor(private readonly d: TurnReviewDeps) {}

  /** Ends the checkpoint turn and reports what it changed. Contract: never rejects; a failure is a notice. */
  async afterTurn(): Promise<void> {
    // This turn's approvals, taken whatever the turn changed: none may count for the next one.
    const approved = this.d.approved?.take();
    try {
      const ended = await this.d.checkpoints.endTurn();
      this.d.gate.provenance.turnEnded(ended?.turnId ?? '', ended?.changes.map((c) => c.path) ?? []);
      if (ended?.incomplete)
        this.d.emit({
          type: 'notice',
          level: 'error',
          code: 'checkpoint_incomplete',
          text: `Turn ${ended.turnId}: ${ended.incomplete}.`,
        });
      if (!ended || ended.changes.length === 0) return;
      const { turnId, changes } = ended;
      this.d.emit({
        type: 'turn_changes',
        turnId,
        files: changes.map((c) => ({
          path: c.path,
          kind: c.kind,
          ...(c.tooLarge ? { tooLarge: true } : {}),
          ...(c.notRestorable ? { notRestorable: c.notRestorable } : {}),
          ...(c.by ? { by: c.by } : {}),
        })),
      });
      if (!this.d.reviewTurns) return;
      if (this.blocks(changes, approved))
        this.d.emit({ type: 'turn_review_requested', turnId, files: changes });
      else
        this.d.emit({
          type: 'notice',
          level: 'info',
          text: `Turn review: ${changes.length} file${changes.length === 1 ? '' : 's'} changed, each exactly as you approved it on its card (${changes
            .map((c) => c.path)
            .join(', ')}); /undo reverts the turn.`,
        });
    } catch (err) {
      this.d.emit({
        type: 'notice',
        level: 'error',
        code: 'checkpoint_incomplete',
        text: `The end-of-turn checkpoint failed (${(err as Error).message}); /undo may not cover this turn.`,
      });
    }
  }

  /** Approved once is approved: manual mode, and every changed file holds what its card showed. */
  private blocks(
    changes: readonly { path: string; kind: string }[],
    approved: ReadonlyMap<string, string> | undefined,
  ): boolean {
    const root = this.d.root;
    if (!approved || !root || !this.d.mode) return true;
    const now = changes.map((c) => {
      const hash = c.kind === 'deleted' ? undefined : currentHash(root, c.path);
      return hash === undefined ? { path: c.path, kind: c.kind } : { path: c.path, kind: c.kind, hash };
    });
    return turnReviewBlocks({ mode: this.d.mode(), changes: now, approved });
  }

  /** The person's answer to a review. Contract: never rejects; answered by `turn_review_resolved` or a notice. */
  async answer(turnId: string, action: 'keep' | 'revert', paths?: readonly string[]): Promise<void> {
    if (action === 'keep') {
      this.d.gate.provenance.reviewed(turnId);
      this.d.emit({ type: 'turn_review_resolved', turnId, action, outcome: 'kept' });
      return;
    }
    const known = await this.d.checkpoints.turnChanges(turnId).catch(() => []);
    if (known.length === 0) {
      this.d.emit({ type: 'notice', level: 'warn', text: `No changes of turn ${turnId} to revert.` });
      return;
    }
    const result = await this.d.gate.intercept(
      {
        id: `review-${Date.now()}`,
        tool: this.d.revertTool,
        args: { turn: turnId, ...(paths && paths.length > 0 ? { paths: [...paths] } : {}) },
        why: paths?.length
          ? 'You chose files to revert on the turn review.'
          : 'You chose to revert the turn on the review.',
      },
      { agentId: 'user', agentName: 'you', taskId: `review-${turnId}`, signal: new AbortController().signal },
    );
    if (result.status !== 'executed') {
      this.d.emit({
        type: 'turn_review_resolved',
        turnId,
        action,
        outcome: 'refused',
        reason: `${result.status}${result.reason ? `: ${result.reason}` : ''}`,
      });
      return;
    }
    this.d.gate.provenance.reviewed(turnId);
    const data = result.data as { restored?: string[]; removed?: string[] } | undefined;
    this.d.emit({
      type: 'turn_review_resolved',
      turnId,
      action,
      outcome: 'reverted',
      reverted: [...(data?.restored ?? []), ...(data?.removed ?? [])],
    });
    if (result.output) this.d.emit({ type: 'notice', level: 'info', text: result.output });
  }
}
