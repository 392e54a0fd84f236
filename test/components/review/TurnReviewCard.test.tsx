import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { INITIAL_REVIEW, reviewStep } from '../../../components/review/review-state';
import { TurnReviewCard } from '../../../components/review/TurnReviewCard';
import type { TurnReview } from '../../../src/protocol';
import { FakeCore } from '../../helpers/fake-core';
import { KEY, press, waitForFrame, waitUntil } from '../../helpers/ink';
import { renderApp } from '../app-harness';

const review: TurnReview = {
  turnId: 't-1',
  files: [
    { path: 'made.txt', kind: 'created', after: 'made\n' },
    { path: 'mod.txt', kind: 'modified', before: 'old line\n', after: 'new line\n' },
    { path: 'big.bin', kind: 'modified', tooLarge: true },
  ],
};

const show = () => {
  const core = new FakeCore();
  const view = render(<TurnReviewCard client={core} review={review} width={100} maxRows={24} isActive />);
  return { core, view };
};

describe('TurnReviewCard', () => {
  it('lists every changed file with its kind, says which are too large to restore, and shows the diff under the cursor', async () => {
    const { view } = show();
    const frame = await waitForFrame(view.lastFrame, 'Review the turn: 3 file(s) changed');
    expect(frame).toContain('+ created');
    expect(frame).toContain('mod.txt');
    expect(frame).toContain('big.bin (not restorable)');
    expect(frame).toContain('listed, not copied');
    expect(frame).toContain('keep all');
    await press(view.stdin, KEY.down);
    await waitForFrame(view.lastFrame, 'new line');
  });

  it.each([
    ['a keeps all', ['a'], { type: 'review_turn', turnId: 't-1', action: 'keep' }],
    ['Esc keeps all', [KEY.escape], { type: 'review_turn', turnId: 't-1', action: 'keep' }],
    ['u reverts the turn', ['u'], { type: 'review_turn', turnId: 't-1', action: 'revert' }],
    [
      'r reverts the file under the cursor',
      [KEY.down, 'r'],
      { type: 'review_turn', turnId: 't-1', action: 'revert', paths: ['mod.txt'] },
    ],
    [
      'Space selects, r reverts the selected files',
      [' ', KEY.down, ' ', 'r'],
      { type: 'review_turn', turnId: 't-1', action: 'revert', paths: ['made.txt', 'mod.txt'] },
    ],
  ])('%s', async (_name, keys, command) => {
    const { core, view } = show();
    await waitForFrame(view.lastFrame, 'Review the turn');
    for (const key of keys) await press(view.stdin, key);
    await waitUntil(() => expect(core.sent).toEqual([command]));
  });

  it('a file too large to restore cannot be chosen for a revert', () => {
    const atLarge = { cursor: 2, selected: [] };
    expect(reviewStep(atLarge, 'toggle', 't-1', review.files).state.selected).toEqual([]);
    expect(reviewStep(atLarge, 'revert_selected', 't-1', review.files).send).toBeUndefined();
    expect(reviewStep(INITIAL_REVIEW, 'up', 't-1', review.files).state.cursor).toBe(0);
    expect(reviewStep({ cursor: 2, selected: [] }, 'down', 't-1', review.files).state.cursor).toBe(2);
  });

  it('the app shows the review while the core has one, and the prompt does not take its keys', async () => {
    const core = new FakeCore({ review });
    const view = await renderApp(core);
    await waitForFrame(view.lastFrame, 'Review the turn');
    await press(view.stdin, 'u');
    await waitUntil(() =>
      expect(core.sent).toContainEqual({ type: 'review_turn', turnId: 't-1', action: 'revert' }),
    );
    expect(core.sent.some((c) => c.type === 'submit')).toBe(false);
    core.update({ review: undefined });
    await waitForFrame(view.lastFrame, (f) => !f.includes('Review the turn'));
  });
});
