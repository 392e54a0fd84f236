// A burst of 5,000 parallel calls through the real bundled binary in a pseudo-terminal (issue 16):
// the fake model answers one request with 5,000 read_file calls; prints model request → the
// model's next answer on screen (every call ran, was recorded and rendered) and the process's
// peak RSS, next to the same with 50 calls in the same run (the cost should grow with the calls,
// not with calls × entries on screen).
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAI } from '../test/helpers/fake-openai';
import { startWarden } from '../test/helpers/pty';
import { median, printRow } from './stats';

const RUNS = 3;
const tempDir = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

async function burst(calls: number): Promise<{ ms: number; rss: number }> {
  const root = tempDir('warden-bench-burst-');
  const home = tempDir('warden-bench-home-');
  writeFileSync(join(root, 'a.txt'), 'a\n');
  writeFileSync(join(home, 'config.json'), JSON.stringify({ contextWindowTokens: 10_000_000 }));
  let requestAt = 0;
  const list = Array.from({ length: calls }, () => ({ name: 'read_file', args: { path: 'a.txt' } }));
  const fake = await startFakeOpenAI([
    () => {
      requestAt = performance.now();
      return { toolCalls: list, chunkSize: 65_536 };
    },
    { text: 'read them all' },
  ]);
  const app = startWarden(
    ['--root', root, 'read a.txt many times'],
    { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench', WARDEN_HOME: home },
    { cols: 120, rows: 40 },
  );
  await app.waitFor('read them all', 600_000);
  const ms = performance.now() - requestAt;
  const rss = peakRssMiB(app.pty.pid);
  app.kill();
  await app.exited;
  await fake.close();
  return { ms, rss };
}

const small: { ms: number; rss: number }[] = [];
const big: { ms: number; rss: number }[] = [];
for (let i = 0; i < RUNS; i++) {
  small.push(await burst(50));
  big.push(await burst(5_000));
}
const bigMs = median(big.map((r) => r.ms));
const smallMs = median(small.map((r) => r.ms));
printRow('burst of 5,000 parallel calls → answer on screen (ms; goal ≤ 1,000)', bigMs.toFixed(0));
printRow(
  '  50 calls, same run (ms)',
  `${smallMs.toFixed(0)} (5,000 calls: ${(bigMs / smallMs).toFixed(1)}×)`,
);
printRow(
  '  peak RSS, 5,000 / 50 calls (MiB; goal ≤ 150)',
  `${median(big.map((r) => r.rss)).toFixed(0)} / ${median(small.map((r) => r.rss)).toFixed(0)}`,
);
