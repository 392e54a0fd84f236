// The diff card on a big file (issue 13 §2): a 20,000-line file with 50 scattered edits. Prints,
// warm, the card opening (line diff + fold + the rows in view, drawn by Ink) and each key (scroll,
// jump) until its frame is drawn, next to the same file through the full-row view the card had
// before folding (every row, opened at the first change, found by paging) in the same run; and the
// whole drawer again on a file none of its lines were drawn before (the first look at a real write).
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { render } from 'ink-testing-library';
import { diffLines } from 'diff';
import { createElement as h } from 'react';
import { ApprovalDrawer } from '../components/drawer/ApprovalDrawer';
import { DiffView } from '../components/drawer/preview/DiffView';
import { changeOffset, foldDiff } from '../components/drawer/preview/diff-fold';
import { projectView } from '../components/drawer/preview/diff-project';
import { buildDiffModel } from '../components/drawer/preview/diff-rows';
import { loadHighlighter } from '../components/highlight/highlight';
import { diffLineBlocks } from '../src/text/line-diff';
import { FakeCore, makeRequest } from '../test/helpers/fake-core';
import { median, printRow } from './stats';

// React as the binary bundles it (production), and modules resolved as the bundle resolves them
// (string-width memoised: bench/as-bundled.mjs); the bench runs itself again if started otherwise.
if (process.env.NODE_ENV !== 'production') {
  const asBundled = fileURLToPath(new URL('./as-bundled.mjs', import.meta.url));
  execFileSync(process.execPath, ['--import', 'tsx', '--import', asBundled, fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  process.exit(0);
}

const LINES = 20_000;
const EDITS = 50;
const WIDTH = 140;
const HEIGHT = 40;
const RUNS = 9;

const edited = new Set(Array.from({ length: EDITS }, (_, k) => Math.floor(((k + 0.5) * LINES) / EDITS)));
/** The file before and after its edits; `tag` ends every line, so a tagged file shares no line with another. */
function texts(tag = '') {
  const before = Array.from(
    { length: LINES },
    (_, i) => `export function step${i}(input: number): number { return input + ${i}; } // step ${i}${tag}`,
  );
  const after = before.map((l, i) => (edited.has(i) ? l.replace('input +', 'input * 2 +') : l));
  return { beforeText: `${before.join('\n')}\n`, afterText: `${after.join('\n')}\n` };
}
const { beforeText, afterText } = texts();

/** Waits (without a timer) until the latest frame passes `test`; returns the milliseconds since `from`. */
async function drawn(frame: () => string | undefined, test: (f: string) => boolean, from: number) {
  for (let i = 0; i < 1_000_000; i++) {
    if (test(frame() ?? '')) return performance.now() - from;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error('frame never drawn');
}

/** DiffView alone: open (diff + rows + first frame) and one offset change, folded or every row. */
async function viewRun(unfolded: boolean): Promise<{ open: number; key: number; keysToAll: number }> {
  const start = performance.now();
  const model = buildDiffModel(beforeText, afterText, false);
  const folded = foldDiff(model, 'split', unfolded);
  const first = changeOffset(folded.changes, 0);
  const props = {
    path: 'src/steps.ts',
    model,
    folded,
    layout: 'split' as const,
    width: WIDTH,
    height: HEIGHT,
  };
  const r = render(h(DiffView, { ...props, offset: first, change: 0 }));
  const open = await drawn(r.lastFrame, (f) => f.includes('step'), start);
  // One key: the next change (folded: a jump; every row: where paging would land, one frame).
  const target = changeOffset(folded.changes, 1);
  const t = performance.now();
  r.rerender(h(DiffView, { ...props, offset: target, change: 1 }));
  const key = await drawn(r.lastFrame, (f) => f.includes(`${[...edited][1] ?? 0}`), t);
  r.unmount();
  // Keys to visit every change: a jump each when folded; pages of the full-row view otherwise.
  const page = HEIGHT - 3;
  const keysToAll = unfolded
    ? folded.changes.reduce((n, c, k) => n + Math.ceil((c - (folded.changes[k - 1] ?? 0)) / page), 0)
    : folded.changes.length - 1;
  return { open, key, keysToAll };
}

/**
 * The whole drawer (queue, details, card, footer) with the new card: open, then ] and j keys. The
 * same file each run, or (`fresh`) one whose lines no earlier run drew: no memo of a line (its
 * highlighting, width, tokens) helps, as on the first look at a real write.
 */
async function drawerRun(id: number, fresh = false): Promise<{ open: number; jump: number; scroll: number }> {
  const file = fresh ? texts(` run ${id}`) : { beforeText, afterText };
  const request = makeRequest({
    id: `req-${id}-${fresh}`,
    argsHash: `h-${id}-${fresh}`,
    preview: {
      kind: 'diff',
      path: 'src/steps.ts',
      before: file.beforeText,
      after: file.afterText,
      isNew: false,
    },
    args: { path: 'src/steps.ts', content: file.afterText },
  });
  const clock = { t: 1_000_000 };
  const start = performance.now();
  const r = render(
    h(ApprovalDrawer, {
      client: new FakeCore({ pending: [request] }),
      pending: [request],
      width: WIDTH,
      height: HEIGHT,
      isActive: true,
      now: () => clock.t,
    }),
  );
  const open = await drawn(r.lastFrame, (f) => f.includes(`change 1 of ${EDITS}`), start);
  clock.t += 1000;
  // Let the drawer's effects settle so the keys are not taken for keys meant for a card in flight.
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  const jumps: number[] = [];
  for (let k = 2; k <= 6; k++) {
    const t = performance.now();
    r.stdin.write(']');
    jumps.push(await drawn(r.lastFrame, (f) => f.includes(`change ${k} of ${EDITS}`), t));
    for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const scrolls: number[] = [];
  for (let k = 0; k < 5; k++) {
    const before = r.lastFrame();
    const t = performance.now();
    r.stdin.write('j');
    scrolls.push(await drawn(r.lastFrame, (f) => f !== before, t));
    for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  r.unmount();
  return { open, jump: median(jumps), scroll: median(scrolls) };
}

/** The parts the card computes itself: line diff and folds on open, the rows in view per key. */
function modelRun(): { open: number; key: number; jsdiff: number; myers: number } {
  const j = performance.now();
  diffLines(beforeText, afterText, { ignoreNewlineAtEof: true });
  const jsdiff = performance.now() - j;
  const t = performance.now();
  const model = buildDiffModel(beforeText, afterText, false);
  const folded = foldDiff(model, 'split', false);
  projectView(model, folded, 'split', { offset: 0, height: HEIGHT, width: WIDTH, shift: 0 });
  const open = performance.now() - t;
  const keys: number[] = [];
  for (let k = 1; k < 20; k++) {
    const s = performance.now();
    projectView(model, folded, 'split', {
      offset: changeOffset(folded.changes, k),
      height: HEIGHT,
      width: WIDTH,
      shift: 0,
    });
    keys.push(performance.now() - s);
  }
  const my = performance.now();
  diffLineBlocks(beforeText.split('\n'), afterText.split('\n'), Number.POSITIVE_INFINITY);
  return { open, key: median(keys), jsdiff, myers: performance.now() - my };
}

await loadHighlighter('src/steps.ts');
const pure: ReturnType<typeof modelRun>[] = [];
const today: Awaited<ReturnType<typeof viewRun>>[] = [];
const folded: Awaited<ReturnType<typeof viewRun>>[] = [];
const drawer: Awaited<ReturnType<typeof drawerRun>>[] = [];
const unseen: Awaited<ReturnType<typeof drawerRun>>[] = [];
for (let i = 0; i < RUNS; i++) {
  today.push(await viewRun(true));
  folded.push(await viewRun(false));
  drawer.push(await drawerRun(i));
  unseen.push(await drawerRun(i, true));
  pure.push(modelRun());
}
// The first run of each warms the code paths; medians of the rest.
const warm = <T>(xs: T[]) => xs.slice(1);
const m = <T>(xs: T[], f: (x: T) => number) => median(warm(xs).map(f));
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
console.log(
  `${LINES.toLocaleString('en')}-line file, ${EDITS} scattered edits, ${WIDTH}×${HEIGHT}; load average ${loadavg()[0]?.toFixed(1)} (Ink's drawing dominates a frame and grows with load)`,
);
printRow('line diff, jsdiff diffLines (ms, before)', m(pure, (r) => r.jsdiff).toFixed(1));
printRow('line diff, Myers on lines (ms, after)', m(pure, (r) => r.myers).toFixed(1));
printRow('line diff + folds + rows in view (ms)', m(pure, (r) => r.open).toFixed(1));
printRow('rows in view for a jump (ms)', m(pure, (r) => r.key).toFixed(2));
printRow('card open, full-row view (ms, before)', m(today, (r) => r.open).toFixed(1));
printRow('card open, folded view (ms, after)', m(folded, (r) => r.open).toFixed(1));
printRow(
  '  after / before',
  ratio(
    m(folded, (r) => r.open),
    m(today, (r) => r.open),
  ),
);
printRow('card open, whole drawer (ms; goal ≤ 50)', m(drawer, (r) => r.open).toFixed(1));
printRow('next change, full-row view frame (ms, before)', m(today, (r) => r.key).toFixed(1));
printRow('next change, folded view frame (ms, after)', m(folded, (r) => r.key).toFixed(1));
printRow('] jump key → frame, whole drawer (ms; goal ≤ 16)', m(drawer, (r) => r.jump).toFixed(1));
printRow('j scroll key → frame, whole drawer (ms; goal ≤ 16)', m(drawer, (r) => r.scroll).toFixed(1));
printRow('  lines never drawn before: open (ms)', m(unseen, (r) => r.open).toFixed(1));
printRow('  lines never drawn before: ] jump (ms)', m(unseen, (r) => r.jump).toFixed(1));
printRow('  lines never drawn before: j scroll (ms)', m(unseen, (r) => r.scroll).toFixed(1));
printRow('keys to visit all 50 changes (before → after)', `${today[0]?.keysToAll} → ${folded[0]?.keysToAll}`);
