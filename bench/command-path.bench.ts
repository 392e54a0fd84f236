// Commands as fast as files (issue 34): each figure of a sandboxed command next to its floor, in one
// run — the floor is bubblewrap alone (`bwrap --unshare-all` + warden's view of the host, `true`),
// measured between warden's runs. Figures: a read-only command's tool call → result, warm and as the
// first command of a process (headless, 100 `ls -la` in a row: also the 2nd against the 100th);
// in the full-screen app (pty): `ls -la` first and next, `touch x` tool call → card and approve → file
// on disk, peak RSS of a session that ran commands.
// WARDEN_BASELINE=<another dist/warden.js> runs that build too, alternating with this one, for a
// before/after from the same run; WARDEN_PEER_GROK=<grok-cli's dist/index.js> runs grok-cli's `touch x`
// session beside each build's (bench/peer-session.ts: request → card, the session's first command), so
// that goal's figure and its peer's come from this run too; WARDEN_CPU_PROF=<dir> profiles every
// warden process; COMMAND_RUNS sets the processes per build and kind (default 5).
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { findOnPath } from '../src/tools/exec/sandbox';
import { WARDEN_BIN } from '../test/helpers/pty';
import { floorRunner, headlessRun, type TuiFigures, tuiRun } from './command-path-runs';
import { grokApp, wardenApp } from './peer-apps';
import { peerSession, TOUCH_X, TOUCH_Y } from './peer-session';
import { median } from './stats';

const bwrap = findOnPath('bwrap');
if (!bwrap) {
  console.log('bwrap is not installed: there is no sandbox to measure');
  process.exit(0);
}
const RUNS = Number(process.env.COMMAND_RUNS ?? 5);
const IN_A_ROW = 100;
const builds = [{ name: 'this build', bin: WARDEN_BIN }];
if (process.env.WARDEN_BASELINE) builds.push({ name: 'baseline', bin: process.env.WARDEN_BASELINE });

const grokScript = process.env.WARDEN_PEER_GROK;
const grok = grokScript && existsSync(grokScript) ? grokApp(grokScript) : undefined;
/** `touch x` request → card as the session's first command, each build's and grok-cli's (last). */
const peerCards = [...builds, ...(grok ? [grok] : [])].map(() => [] as number[]);
const peerCard = async (index: number) => {
  const build = builds[index];
  const app = build ? wardenApp(build.bin, build.name) : grok;
  if (!app) return;
  const card = (await peerSession(app, TOUCH_X, TOUCH_Y, false)).commandCard;
  if (card !== undefined) peerCards[index]?.push(card);
};

const floorOnce = floorRunner(bwrap);
const floor: number[] = [];
const sampleFloor = async (n: number) => {
  for (let i = 0; i < n; i++) floor.push(await floorOnce());
};
type Headless = { first: number; warm: number; second: number; hundredth: number };
const headless = builds.map(() => [] as Headless[]);
const tui = builds.map(() => [] as TuiFigures[]);
const loads: number[] = [];
await sampleFloor(3);
for (let run = 0; run < RUNS; run++) {
  // Alternate which build goes first, so neither always meets the quieter moment.
  const order = run % 2 === 0 ? [...builds.keys()] : [...builds.keys()].reverse();
  // grok-cli's `touch x` session comes after the builds' in one run, before them in the next.
  if (grok && run % 2 === 1) await peerCard(builds.length);
  for (const b of order) {
    const bin = builds[b]?.bin as string;
    loads.push(loadavg()[0] as number);
    await sampleFloor(5);
    const gaps = await headlessRun(bin, IN_A_ROW, 'ls -la');
    const window = (from: number) => median(gaps.slice(from, from + 10));
    headless[b]?.push({
      first: gaps[0] as number,
      warm: median(gaps.slice(1)),
      second: window(1),
      hundredth: window(IN_A_ROW - 10),
    });
    await sampleFloor(5);
    tui[b]?.push(await tuiRun(bin));
    if (grok) await peerCard(b);
  }
  if (grok && run % 2 === 0) await peerCard(builds.length);
}

const f = median(floor);
const of = <T>(rows: readonly T[], pick: (r: T) => number) => median(rows.map(pick));
const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(10);
const ratio = (v: number, against = f) => `${(v / against).toFixed(2)}×`.padStart(8);
console.log(
  `${RUNS} processes per build and kind, alternating; load average ${Math.min(...loads).toFixed(1)} – ${Math.max(...loads).toFixed(1)} on ${
    (await import('node:os')).cpus().length
  } cores`,
);
console.log(
  `floor: bwrap --unshare-all + warden's view, \`true\`: median ${f.toFixed(1)} ms (${floor.length} runs)`,
);
for (const [b, build] of builds.entries()) {
  const h = headless[b] ?? [];
  const t = tui[b] ?? [];
  console.log(`\n${build.name} (${build.bin})`);
  const row = (label: string, v: number, goal: string) =>
    console.log(`  ${label.padEnd(58)}${ms(v)}${ratio(v)} floor   ${goal}`);
  const warm = of(h, (r) => r.warm);
  row('read-only `ls -la`, tool call → result, warm (headless)', warm, 'goal ≤ 3×');
  row(
    'first command of a process (headless)',
    of(h, (r) => r.first),
    'goal ≤ 15×',
  );
  row(
    'first command of a process (full screen)',
    of(t, (r) => r.readFirst),
    'goal ≤ 15×',
  );
  row(
    'read-only `ls -la`, second command (full screen)',
    of(t, (r) => r.readNext),
    '',
  );
  row(
    '`touch x` tool call → card (full screen, after `ls -la`)',
    of(t, (r) => r.touchCard),
    '',
  );
  const grokCard = median(peerCards[builds.length] ?? []);
  const card = median(peerCards[b] ?? []);
  console.log(
    grok
      ? `  ${'`touch x` request → card, first command, vs grok-cli'.padEnd(58)}${ms(card)}${ratio(card, grokCard)} grok's ${grokCard.toFixed(1)} ms   goal ≤ 1×`
      : `  ${'`touch x` request → card against grok-cli'.padEnd(58)}  not run: set WARDEN_PEER_GROK (bench/peers.bench.ts says how)`,
  );
  const file = of(t, (r) => r.touchFile);
  console.log(
    `  ${'`touch x` approve → file on disk'.padEnd(58)}${ms(file)}${ratio(file, warm)} warm read-only   goal ≤ 2×`,
  );
  const second = of(h, (r) => r.second);
  const hundredth = of(h, (r) => r.hundredth);
  console.log(
    `  ${`${IN_A_ROW} in a row: 2nd–11th / ${IN_A_ROW - 9}th–${IN_A_ROW}th (medians)`.padEnd(58)}${ms(second)}${ms(hundredth)}${ratio(hundredth, second)}   goal flat (≈ 1×)`,
  );
  console.log(
    `  ${'peak RSS, full-screen session that ran 3 commands'.padEnd(58)}${`${of(t, (r) => r.rss).toFixed(0)} MiB`.padStart(10)}   goal ≤ 100 MiB`,
  );
}
if (builds.length > 1) {
  console.log('\nbaseline / this build');
  const pairs: [string, number, number][] = [
    ['warm read-only (headless)', of(headless[1] ?? [], (r) => r.warm), of(headless[0] ?? [], (r) => r.warm)],
    [
      'first command (headless)',
      of(headless[1] ?? [], (r) => r.first),
      of(headless[0] ?? [], (r) => r.first),
    ],
    [
      'first command (full screen)',
      of(tui[1] ?? [], (r) => r.readFirst),
      of(tui[0] ?? [], (r) => r.readFirst),
    ],
    ['touch x → card', of(tui[1] ?? [], (r) => r.touchCard), of(tui[0] ?? [], (r) => r.touchCard)],
    ['touch x approve → file', of(tui[1] ?? [], (r) => r.touchFile), of(tui[0] ?? [], (r) => r.touchFile)],
    ['peak RSS', of(tui[1] ?? [], (r) => r.rss), of(tui[0] ?? [], (r) => r.rss)],
  ];
  for (const [label, before, after] of pairs)
    console.log(
      `  ${label.padEnd(58)}${before.toFixed(1).padStart(9)} → ${after.toFixed(1).padStart(7)}${ratio(before, after)}`,
    );
}
