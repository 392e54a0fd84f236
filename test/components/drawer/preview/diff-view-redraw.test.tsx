import chalk from 'chalk';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DiffView, type DiffViewProps } from '../../../../components/drawer/preview/DiffView';
import { changeOffset, foldDiff } from '../../../../components/drawer/preview/diff-fold';
import { buildDiffModel, type DiffLayout } from '../../../../components/drawer/preview/diff-rows';
import { makeTheme, ThemeContext } from '../../../../components/look/theme';

// Colours in frames, so a row redrawn with a stale tone or marker would show.
beforeAll(() => {
  chalk.level = 1;
});
afterEach(() => cleanup());

const before = Array.from({ length: 300 }, (_, i) =>
  i % 37 === 5 ? `${'long '.repeat(40)}line ${i + 1}` : `line ${i + 1}`,
);
const after = before.flatMap((l, i) =>
  i % 23 === 7 ? [`${l} changed`] : i % 41 === 11 ? [] : i % 53 === 3 ? [l, `added after ${i + 1}`] : [l],
);
const model = buildDiffModel(`${before.join('\n')}\n`, `${after.join('\n')}\n`, false);

/** Rows are memoised and keyed by place: each frame after a move must equal a fresh draw of it. */
describe('DiffView redrawn after a move draws what a fresh view draws', () => {
  it.each(['split', 'unified'] as DiffLayout[])('%s', (layout) => {
    for (const unfolded of [false, true]) {
      const folded = foldDiff(model, layout, unfolded);
      const base = { path: 'a.txt', model, folded, layout, width: 120, height: 14, unfolded };
      const moves: Partial<DiffViewProps>[] = [
        { offset: 0 },
        { offset: 1 },
        { offset: 2 },
        { offset: 1 },
        { offset: 13 },
        { offset: changeOffset(folded.changes, 3), change: 3 },
        { offset: changeOffset(folded.changes, 4), change: 4 },
        { offset: changeOffset(folded.changes, 4) + 1 },
        { offset: changeOffset(folded.changes, 4) + 1, shift: 30 },
        { offset: changeOffset(folded.changes, 2), change: 2 },
        { offset: 10_000 },
      ];
      const theme = makeTheme({});
      const draw = (p: Partial<DiffViewProps>) => (
        <ThemeContext.Provider value={theme}>
          <DiffView {...base} offset={0} {...p} />
        </ThemeContext.Provider>
      );
      const live = render(draw(moves[0] ?? {}));
      for (const move of moves) {
        live.rerender(draw(move));
        const fresh = render(draw(move));
        expect(
          live.lastFrame(),
          `${layout} ${unfolded ? 'unfolded' : 'folded'} ${JSON.stringify(move)}`,
        ).toBe(fresh.lastFrame());
        fresh.unmount();
      }
      live.unmount();
    }
  });
});
