// The TUI as a person meets it: the real bundled binary in a pseudo-terminal against the fake
// OpenAI server. Prints medians of launch → prompt ready, tool call received → approval card on
// screen, approve key → file on disk, peak RSS, and keypress → frame with a 2 000-entry transcript;
// beside them the floor: a bundled Ink hello-world (bench/ink-floor.tsx) launched the same way.
import { benchTempDir } from './temp-dir';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
// @ts-expect-error a plain .mjs build script without types
import { sharedOptions } from '../scripts/esbuild-options.mjs';
import { startFakeOpenAI } from '../test/helpers/fake-openai';
import { startNodeProgram, startWarden } from '../test/helpers/pty';
import { median, percentile, printRow } from './stats';

const RUNS = 5;
/** Another build to measure (before → after comparisons); the repository's dist/warden.js by default. */
const BIN = process.env.WARDEN_BENCH_BIN || undefined;
const SIZE = { cols: 120, rows: 40 };
const env = (url: string, home: string) => ({
  OPENAI_BASE_URL: url,
  OPENAI_API_KEY: 'bench',
  WARDEN_HOME: home,
});
const tempDir = benchTempDir;

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/**
 * CPU time (ms) the process's main thread has run so far, from the scheduler's nanosecond count: on a
 * machine shared with other work it moves far less than wall time, so it is printed beside it, and
 * the main thread is where a first frame waits (GC and compiler helper threads run beside it).
 */
function cpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

/** The approval card of a new file is on screen with its body (its diff), not only the drawer's title. */
const cardShown = (path: string) => (s: string) =>
  s.includes('Approval needed') && s.includes(`${path} new file`);

function waitForFile(dir: string, name: string): Promise<number> {
  return new Promise((resolve) => {
    const watcher = watch(dir, () => {
      if (existsSync(join(dir, name))) {
        watcher.close();
        resolve(performance.now());
      }
    });
  });
}

/**
 * The fake model for a run: one answer per file, each a write_file of it, then "done". `requests`
 * holds the time the newest request came in.
 */
async function writesModel(files: Record<string, string>) {
  const requests = { at: 0 };
  const writes = Object.entries(files).map(([path, content]) => () => {
    requests.at = performance.now();
    return { toolCalls: [{ name: 'write_file', args: { path, content } }], chunkSize: 4096 };
  });
  return { fake: await startFakeOpenAI([...writes, { text: 'done' }]), requests };
}

async function oneApprovalRun(): Promise<{
  ready: number;
  readyCpu: number;
  card: number;
  warmCard: number;
  approve: number;
  warmApprove: number;
  rss: number;
}> {
  const root = tempDir('warden-bench-tui-');
  const home = tempDir('warden-bench-home-');
  const { fake, requests } = await writesModel({ 'out.txt': 'bench\n', 'second.txt': 'again\n' });
  const start = performance.now();
  const app = startWarden(['--root', root, 'write it'], env(fake.url, home), SIZE, BIN);
  await app.waitUntil((s) => /│ mode manual/.test(s) && s.includes('›'), 20_000, 'the prompt');
  const ready = performance.now() - start;
  const readyCpu = cpuMs(app.pty.pid);
  await app.waitUntil(cardShown('out.txt'), 20_000, 'the card');
  const card = performance.now() - requests.at;
  await app.waitFor('keys paused');
  await app.waitUntil((s) => !s.includes('keys paused'), 20_000, 'grace');
  const fileOnDisk = waitForFile(root, 'out.txt');
  const pressed = performance.now();
  app.press('y');
  const approve = (await fileOnDisk) - pressed;
  // The second card of the session: the code paths are warm, as in a working session.
  await app.waitUntil(cardShown('second.txt'), 20_000, 'the next card');
  const warmCard = performance.now() - requests.at;
  await app.waitFor('keys paused');
  await app.waitUntil((s) => !s.includes('keys paused'), 20_000, 'grace');
  const secondOnDisk = waitForFile(root, 'second.txt');
  const pressedAgain = performance.now();
  app.press('y');
  const warmApprove = (await secondOnDisk) - pressedAgain;
  await app.waitFor('done');
  const rss = peakRssMiB(app.pty.pid);
  app.kill();
  await app.exited;
  await fake.close();
  return { ready, readyCpu, card, warmCard, approve, warmApprove, rss };
}

/**
 * The first card of a session whose prompt the person types (issue 16): the app warms the card's
 * code off-screen while they type. Keys go in one at a time, each after its echo, as typing does.
 */
async function typedFirstCard(): Promise<number> {
  const root = tempDir('warden-bench-tui-');
  const home = tempDir('warden-bench-home-');
  const { fake, requests } = await writesModel({ 'out.txt': 'bench\n' });
  const app = startWarden(['--root', root], env(fake.url, home), SIZE, BIN);
  await app.waitUntil((s) => /│ mode manual/.test(s) && s.includes('›'), 20_000, 'the prompt');
  const prompt = 'write the file out.txt';
  for (let i = 0; i < prompt.length; i++) {
    app.press(prompt[i] as string);
    const typed = prompt.slice(0, i + 1);
    await app.waitUntil((s) => s.includes(`› ${typed}`), 20_000, 'the echo');
  }
  app.press('\r');
  await app.waitUntil(cardShown('out.txt'), 20_000, 'the card');
  const card = performance.now() - requests.at;
  app.kill();
  await app.exited;
  await fake.close();
  return card;
}

async function transcriptKeypress(): Promise<{ keypress: number; p90: number; entries: number }> {
  const root = tempDir('warden-bench-tui-');
  const home = tempDir('warden-bench-home-');
  writeFileSync(join(root, 'a.txt'), 'a\n');
  writeFileSync(join(home, 'config.json'), JSON.stringify({ contextWindowTokens: 10_000_000 }));
  const calls = Array.from({ length: 1999 }, () => ({ name: 'read_file', args: { path: 'a.txt' } }));
  const fake = await startFakeOpenAI([{ toolCalls: calls, chunkSize: 4096 }, { text: 'read them all' }]);
  const app = startWarden(['--root', root, 'read a.txt many times'], env(fake.url, home), SIZE, BIN);
  await app.waitFor('read them all', 120_000);
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const marker = String.fromCharCode(97 + (i % 26));
    const before = app.screen();
    const pressed = performance.now();
    app.press(marker);
    await app.waitUntil((s) => s !== before, 20_000, 'echo');
    times.push(performance.now() - pressed);
  }
  app.kill();
  await app.exited;
  await fake.close();
  // Keys go back to back (each after its echo): a frame held to the end of Ink's window shows in p90.
  return { keypress: median(times), p90: percentile(times, 90), entries: 2000 };
}

/** Bundles bench/ink-floor.tsx with warden's own esbuild settings (production React, minified). */
async function buildInkFloor(): Promise<string> {
  const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
  const outfile = join(tempDir('warden-bench-floor-'), 'ink-floor.js');
  await build({ ...sharedOptions(repo), entryPoints: [join(repo, 'bench', 'ink-floor.tsx')], outfile });
  return outfile;
}

/** Launch → first frame of the bundled Ink hello-world in the same pty harness, and its peak RSS. */
async function inkFloorRun(bin: string): Promise<{ ready: number; readyCpu: number; rss: number }> {
  const start = performance.now();
  const app = startNodeProgram(bin, [], {}, { size: SIZE });
  await app.waitUntil((s) => s.includes('hello from the Ink floor') && s.includes('›'), 20_000, 'the floor');
  const ready = performance.now() - start;
  const readyCpu = cpuMs(app.pty.pid);
  const rss = peakRssMiB(app.pty.pid);
  app.kill();
  await app.exited;
  return { ready, readyCpu, rss };
}

function nodeFloorMs(): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    execFileSync(process.execPath, ['-e', '0']);
    times.push(performance.now() - t);
  }
  return median(times);
}

// WARDEN_BENCH_FLOOR: a floor bundled before (the same hello-world built with an older build script).
const floorBin = process.env.WARDEN_BENCH_FLOOR || (await buildInkFloor());
const runs = [];
const floors = [];
// Interleaved, so a busy moment of a shared machine weighs on both alike.
for (let i = 0; i < RUNS; i++) {
  floors.push(await inkFloorRun(floorBin));
  runs.push(await oneApprovalRun());
}
const floorReady = median(floors.map((f) => f.ready));
const wardenReady = median(runs.map((r) => r.ready));
const typed: number[] = [];
for (let i = 0; i < RUNS; i++) typed.push(await typedFirstCard());
const transcript = await transcriptKeypress();
const nodeFloor = nodeFloorMs();
printRow(
  'launch → prompt ready (median ms; goal ≤ 1.4× the Ink floor)',
  `${wardenReady.toFixed(0)} (${(wardenReady / floorReady).toFixed(2)}× the Ink floor, ${(wardenReady / nodeFloor).toFixed(1)}× node -e 0)`,
);
printRow('  bundled Ink hello-world → first frame (ms)', floorReady.toFixed(0));
const readyCpu = median(runs.map((r) => r.readyCpu));
const floorCpu = median(floors.map((f) => f.readyCpu));
printRow(
  '  main-thread CPU until prompt ready, warden / Ink floor (ms)',
  `${readyCpu.toFixed(0)} / ${floorCpu.toFixed(0)} (${(readyCpu / floorCpu).toFixed(2)}×)`,
);
printRow('  `node -e 0` in the same run (ms)', nodeFloor.toFixed(0));
printRow(
  'model request → first card visible (ms; goal ≤ 50, peers 46–115)',
  median(runs.map((r) => r.card)).toFixed(1),
);
printRow('model request → next card visible, warm (ms)', median(runs.map((r) => r.warmCard)).toFixed(1));
printRow(
  '  first card, prompt typed (warmed while typing; ms)',
  `${median(typed).toFixed(1)} (prompt on the command line, cold: ${(median(runs.map((r) => r.card)) / median(typed)).toFixed(1)}×)`,
);
printRow(
  'approve key → file on disk, first (ms; pressed the moment keys are taken, while the turn checkpoint runs — bench/peers.bench.ts presses after 450 ms, as a person reading, and holds the goal: ≤ grok-cli)',
  median(runs.map((r) => r.approve)).toFixed(1),
);
printRow('approve key → file on disk, warm (ms)', median(runs.map((r) => r.warmApprove)).toFixed(1));
const rss = median(runs.map((r) => r.rss));
const floorRss = median(floors.map((f) => f.rss));
printRow(
  'peak RSS (MiB; goal ≤ 100, peers 144–500)',
  `${rss.toFixed(0)} (${(rss / floorRss).toFixed(2)}× the Ink floor)`,
);
printRow('  bundled Ink hello-world peak RSS (MiB)', floorRss.toFixed(0));
printRow(
  `keypress → frame, ${transcript.entries}-entry transcript (ms)`,
  `median ${transcript.keypress.toFixed(1)}, p90 ${transcript.p90.toFixed(1)}`,
);
