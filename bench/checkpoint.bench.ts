// Checkpoint cost on a generated 5,000-file project (issue 15 §3): the shadow git's first checkpoint
// (cold: every file hashed) and the incremental one (one file changed, index warm; goal ≤ 100 ms),
// against the simplest alternative — copying the whole tree (fs.cp) — as a ratio. Also: a checkpoint
// when nothing changed, and reverting a turn of 10 changed files.
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckpointStore } from '../src/agent/checkpoints';
import { removeFileSafely, writeFileSafely } from '../src/tools/fs/safe-fs';

const FILES = 5000;
const ROUNDS = 15;
const base = realpathSync(mkdtempSync(join(tmpdir(), 'warden-cp-bench-')));
const root = join(base, 'proj');
const home = join(base, 'home');
mkdirSync(home);
for (let d = 0; d < FILES / 100; d++) {
  mkdirSync(join(root, 'src', `d${d}`), { recursive: true });
  for (let f = 0; f < 100; f++)
    writeFileSync(join(root, 'src', `d${d}`, `f${f}.ts`), `export const v${d}_${f} = ${d * f};\n`.repeat(20));
}
writeFileSync(join(root, '.gitignore'), 'node_modules/\n');
// A project exists before the session: its files were not all written in the last second. (Files as
// new as the index are "racily clean" to git, which then re-reads them at every status.)
const hourAgo = new Date(Date.now() - 3_600_000);
for (let d = 0; d < FILES / 100; d++)
  for (let f = 0; f < 100; f++) utimesSync(join(root, 'src', `d${d}`, `f${f}.ts`), hourAgo, hourAgo);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? 0;
const time = async (fn: () => Promise<unknown> | unknown) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

const store = createCheckpointStore({
  home,
  root,
  sessionId: 'bench-session',
  files: {
    write: (path, bytes, mode) => writeFileSafely({ path, root }, bytes, mode),
    remove: (path) => removeFileSafely({ path, root }),
  },
});
store.beginTurn();
const first = await time(() => store.beforeChange('bench'));
const incremental: number[] = [];
const unchanged: number[] = [];
// A turn takes one checkpoint (its later calls share it), so each measured checkpoint is a new turn's.
await store.endTurn();
for (let i = 0; i < ROUNDS; i++) {
  writeFileSync(join(root, 'src', 'd1', `f${i}.ts`), `changed ${i}\n`);
  store.beginTurn();
  incremental.push(await time(() => store.beforeChange('bench')));
  await store.endTurn();
  store.beginTurn();
  unchanged.push(await time(() => store.beforeChange('bench')));
  await store.endTurn();
}
// A turn of 10 changed files, then its revert (plan + restore).
store.beginTurn();
await store.beforeChange('bench');
for (let i = 0; i < 10; i++) writeFileSync(join(root, 'src', 'd2', `f${i}.ts`), `turn ${i}\n`);
await store.endTurn();
const revert = await time(() => store.revert({ turns: 1 }));

const copies: number[] = [];
for (let i = 0; i < 3; i++) {
  const to = join(base, `copy-${i}`);
  copies.push(await time(() => cpSync(root, to, { recursive: true })));
  rmSync(to, { recursive: true, force: true });
}
const copy = median(copies);
const inc = median(incremental);
console.log(`checkpoint, ${FILES} files      first ${first.toFixed(0)} ms (cold index, every file hashed)`);
console.log(
  `checkpoint, incremental       median ${inc.toFixed(1)} ms, p95 ${p95(incremental).toFixed(1)} ms (one file changed; goal ≤ 100 ms)`,
);
console.log(`checkpoint, nothing changed   median ${median(unchanged).toFixed(1)} ms`);
console.log(`revert a turn of 10 files     ${revert.toFixed(0)} ms`);
console.log(`copy the tree (fs.cp)         median ${copy.toFixed(0)} ms`);
console.log(
  `ratio copy / incremental      ${(copy / inc).toFixed(1)}× (the shadow git's incremental checkpoint vs copying the tree)`,
);
console.log(`ratio copy / first            ${(copy / first).toFixed(2)}×`);
rmSync(base, { recursive: true, force: true });
