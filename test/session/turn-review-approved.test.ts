/**
 * Approved once is approved (issue 27 §3): in manual mode the turn review does not ask again for
 * files that hold exactly what a person approved on their cards; it still asks in the auto modes,
 * for a file a command changed after the card, for a deletion, and for a grant's approvals.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckpointStore } from '../../src/agent/checkpoints';
import { Provenance } from '../../src/gate/provenance';
import type { Gate } from '../../src/gate/gate';
import type { ApprovalRequest, CoreEvent, Mode } from '../../src/protocol';
import { ApprovedWrites } from '../../src/session/approved-writes';
import { TurnReviews } from '../../src/session/turn-review';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const card = (path: string, after: string): ApprovalRequest =>
  ({ preview: { kind: 'diff', path, before: '', after, isNew: true } }) as unknown as ApprovalRequest;
const human = {
  kind: 'decided' as const,
  decision: { kind: 'approve' as const },
  approver: 'human' as const,
};

function review(mode: Mode, changes: { path: string; kind: 'created' | 'modified' | 'deleted' }[]) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-review-approved-')));
  dirs.push(root);
  const events: CoreEvent[] = [];
  const approved = new ApprovedWrites();
  const checkpoints = { endTurn: async () => ({ turnId: 't-1', changes }) } as unknown as CheckpointStore;
  const reviews = new TurnReviews({
    checkpoints,
    gate: { provenance: new Provenance() } as unknown as Gate,
    emit: (e) => events.push(e),
    reviewTurns: true,
    revertTool: 'revert_turn',
    approved,
    mode: () => mode,
    root,
  });
  const types = () => events.map((e) => e.type);
  return { root, approved, reviews, types, events };
}

describe('the turn review after writes a person approved', () => {
  it('manual mode, every file as its card showed it: a summary, no review card', async () => {
    const r = review('manual', [
      { path: 'a.txt', kind: 'created' },
      { path: 'src/b.ts', kind: 'modified' },
    ]);
    writeFileSync(join(r.root, 'a.txt'), 'A\n');
    mkdirSync(join(r.root, 'src'));
    writeFileSync(join(r.root, 'src/b.ts'), 'B\n');
    r.approved.heard(card('a.txt', 'A\n'), human);
    r.approved.heard(card('src/b.ts', 'B\n'), human);
    await r.reviews.afterTurn();
    expect(r.types()).toEqual(['turn_changes', 'notice']);
    expect(JSON.stringify(r.events[1])).toMatch(/exactly as you approved it/);
  });

  it.each([
    ['auto mode', 'auto' as Mode, 'A\n', human],
    ['a command rewrote the file after its card', 'manual' as Mode, 'changed by a command\n', human],
    ['a grant approved it, not a person', 'manual' as Mode, 'A\n', { ...human, approver: 'grant' as const }],
  ])('%s: the review card asks', async (_label, mode, onDisk, outcome) => {
    const r = review(mode, [{ path: 'a.txt', kind: 'created' }]);
    writeFileSync(join(r.root, 'a.txt'), onDisk);
    r.approved.heard(card('a.txt', 'A\n'), outcome);
    await r.reviews.afterTurn();
    expect(r.types()).toEqual(['turn_changes', 'turn_review_requested']);
  });

  it('a deleted file always asks', async () => {
    const r = review('manual', [{ path: 'gone.txt', kind: 'deleted' }]);
    r.approved.heard(card('gone.txt', ''), human);
    await r.reviews.afterTurn();
    expect(r.types()).toEqual(['turn_changes', 'turn_review_requested']);
  });

  it("one turn's approvals never count for the next", async () => {
    const r = review('manual', [{ path: 'a.txt', kind: 'created' }]);
    writeFileSync(join(r.root, 'a.txt'), 'A\n');
    r.approved.heard(card('a.txt', 'A\n'), human);
    await r.reviews.afterTurn();
    await r.reviews.afterTurn();
    expect(r.types()).toEqual(['turn_changes', 'notice', 'turn_changes', 'turn_review_requested']);
  });
});
