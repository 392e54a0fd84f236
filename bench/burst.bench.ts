// A burst of 5,000 parallel calls through the real bundled binary in a pseudo-terminal (issue 16):
// the fake model answers one request with 5,000 read_file calls; prints model request → the
// model's next answer on screen (every call ran, was recorded and rendered) and the process's
// peak RSS, next to the same with 50 calls in the same run (the cost should grow with the calls,
// not with calls × entries on screen).
// WARDEN_BASELINE=<another dist/warden.js> runs that build too, alternating, for a before/after
// ratio; WARDEN_CPU_PROF=<dir> writes a .cpuprofile of each warden process there; BURST_RUNS=n;
// BURST_FILE_LINES=n reads a file of n 60-character lines instead of one line (real files cost the
// secret and control-character scans of their text; the default keeps the issue's figure comparable).
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ssePieces, startFakeOpenAI, streamEvents } from '../test/helpers/fake-openai';
import { startWarden, WARDEN_BIN } from '../test/helpers/pty';
import { median, printRow } from './stats';

const RUNS = Number(process.env.BURST_RUNS ?? 3);
const FILE_LINES = Number(process.env.BURST_FILE_LINES ?? 1);
const fileText =
  FILE_LINES <= 1
    ? 'a\n'
    : Array.from(
        { length: FILE_LINES },
        (_, i) => `${`line ${i} of the file read many times `.padEnd(59, '.')}\n`,
      ).join('');
const baseline = process.env.WARDEN_BASELINE;
const profileDir = process.env.WARDEN_CPU_PROF;
const nodeArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-interval', '100'] : [];
const tempDir = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** User + system CPU time of a process (and its waited-for children) so far, in ms: robust to a loaded machine. */
function cpuMs(pid: number): number {
  // Fields after the command's closing parenthesis: utime is the 12th, stime the 13th (clock ticks).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** ms: request → answer on screen; callsMs: request → the next request (every call ran and was recorded). */
type Run = { ms: number; callsMs: number; rss: number; cpu: number };

async function burst(calls: number, bin: string): Promise<Run> {
  const root = tempDir('warden-bench-burst-');
  const home = tempDir('warden-bench-home-');
  writeFileSync(join(root, 'a.txt'), fileText);
  writeFileSync(join(home, 'config.json'), JSON.stringify({ contextWindowTokens: 10_000_000 }));
  let requestAt = 0;
  let nextRequestAt = 0;
  let cpuAtRequest = 0;
  let pid = 0;
  const list = Array.from({ length: calls }, () => ({ name: 'read_file', args: { path: 'a.txt' } }));
  // The answer is built before the clock starts, and sent in 64 KiB writes: the fake server took ~100 ms
  // to build the 10,000 events of 5,000 calls and ~50 ms more to write them one by one, on the same two
  // cores as warden — the harness's time, not warden's (a real server's bytes arrive as it makes them).
  const events = streamEvents(
    { toolCalls: list, chunkSize: 65_536 },
    { index: 0, body: { messages: [], stream: true, stream_options: { include_usage: true } } },
  );
  const sse = ssePieces(events);
  const fake = await startFakeOpenAI([
    () => {
      requestAt = performance.now();
      cpuAtRequest = cpuMs(pid);
      return { sse };
    },
    () => {
      nextRequestAt = performance.now();
      return { text: 'read them all' };
    },
  ]);
  const app = startWarden(
    ['--root', root, 'read a.txt many times'],
    {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'bench',
      WARDEN_HOME: home,
    },
    { cols: 120, rows: 40 },
    bin,
    nodeArgs,
  );
  pid = app.pty.pid;
  await app.waitFor('read them all', 600_000);
  const ms = performance.now() - requestAt;
  const rss = peakRssMiB(app.pty.pid);
  const cpu = cpuMs(app.pty.pid) - cpuAtRequest;
  // Ctrl+C twice ends warden normally, so a --cpu-prof run writes its profile.
  if (profileDir) {
    app.press('\u0003');
    app.press('\u0003');
    setTimeout(() => app.kill(), 5_000).unref();
  } else app.kill();
  await app.exited;
  await fake.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  return { ms, callsMs: nextRequestAt - requestAt, rss, cpu };
}

const builds = [{ name: 'this build', bin: WARDEN_BIN }];
if (baseline) builds.push({ name: 'baseline', bin: baseline });
const results = builds.map(() => ({ small: [] as Run[], big: [] as Run[] }));
for (let i = 0; i < RUNS; i++) {
  for (const [b, build] of builds.entries()) {
    results[b]?.small.push(await burst(50, build.bin));
    results[b]?.big.push(await burst(5_000, build.bin));
  }
}
const bigMs = (b: number) => median(results[b]?.big.map((r) => r.ms) ?? []);
for (const [b, build] of builds.entries()) {
  const r = results[b];
  if (!r) continue;
  const smallMs = median(r.small.map((x) => x.ms));
  if (builds.length > 1) console.log(`${build.name} (${build.bin})`);
  printRow('burst of 5,000 parallel calls → answer on screen (ms; goal ≤ 1,000)', bigMs(b).toFixed(0));
  printRow(
    '  50 calls, same run (ms)',
    `${smallMs.toFixed(0)} (5,000 calls: ${(bigMs(b) / smallMs).toFixed(1)}×)`,
  );
  printRow(
    '  peak RSS, 5,000 / 50 calls (MiB; goal ≤ 150)',
    `${median(r.big.map((x) => x.rss)).toFixed(0)} / ${median(r.small.map((x) => x.rss)).toFixed(0)}`,
  );
  printRow('  each 5,000-call run (ms)', r.big.map((x) => x.ms.toFixed(0)).join(', '));
  printRow(
    '    of which the calls (request → next request)',
    r.big.map((x) => x.callsMs.toFixed(0)).join(', '),
  );
  printRow(
    '  warden CPU in that time, 5,000 / 50 calls (ms)',
    `${median(r.big.map((x) => x.cpu)).toFixed(0)} / ${median(r.small.map((x) => x.cpu)).toFixed(0)}`,
  );
}
if (baseline) printRow('  baseline / this build, 5,000 calls', `${(bigMs(1) / bigMs(0)).toFixed(2)}×`);
