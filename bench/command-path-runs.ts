// The runs bench/command-path.bench.ts is made of: the floor (bubblewrap alone, warden's view, `true`),
// a headless warden process running 100 read-only commands in a row, and a full-screen warden in a
// pty running a read-only command, then `touch x` through its card. Each warden process is fresh and
// meets the fake model on 127.0.0.1; each figure is taken from the fake server's clock (the request
// that asked for the call → the request that carries its result) or the file system's.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeOpenAI } from '../test/helpers/fake-openai';
import { startWarden } from '../test/helpers/pty';
import { bwrapArgs, defaultLayout } from '../src/tools/exec/sandbox';
import { benchTempDir } from './temp-dir';

const profileDir = process.env.WARDEN_CPU_PROF;
const nodeArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-interval', '100'] : [];

/** A small project like the ones warden meets: a git repository, 200 source files, a credential file. */
export function benchProject(): string {
  const root = join(benchTempDir('warden-cmd-bench-'), 'proj');
  mkdirSync(join(root, 'src'), { recursive: true });
  for (let i = 0; i < 200; i++) writeFileSync(join(root, 'src', `f${i}.ts`), `export const f${i} = ${i};\n`);
  writeFileSync(join(root, 'package.json'), '{"name":"bench"}\n');
  writeFileSync(join(root, '.env'), 'K=1\n');
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(root, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
  return root;
}

/**
 * The floor: `bwrap --unshare-all` with warden's view of the host (the same mounts, masks and seccomp
 * filter a command gets) running `true`, spawned as warden spawns (async, its own process group).
 * Returns one run's milliseconds.
 */
export function floorRunner(bwrap: string): () => Promise<number> {
  const root = benchProject();
  const layout = defaultLayout(root);
  const args = ['--unshare-all', ...bwrapArgs(root, root, [], undefined, layout), 'true'];
  return () =>
    new Promise((resolve, reject) => {
      const fd = layout.state.seccomp ? openSync(layout.state.seccomp, 'r') : undefined;
      const start = performance.now();
      const child = spawn(bwrap, args, {
        stdio: fd === undefined ? 'ignore' : ['ignore', 'ignore', 'ignore', fd],
        detached: true,
      });
      if (fd !== undefined) closeSync(fd);
      child.once('error', reject);
      child.once('close', (code) =>
        code === 0 ? resolve(performance.now() - start) : reject(new Error(`bwrap exited ${code}`)),
      );
    });
}

function homeFor(steps: number): string {
  const home = benchTempDir('warden-cmd-home-');
  writeFileSync(
    join(home, 'config.json'),
    JSON.stringify({ maxStepsPerTurn: steps + 10, contextWindowTokens: 10_000_000 }),
  );
  return home;
}

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** One headless process: `count` read-only commands in a row; each call → result interval, in order. */
export async function headlessRun(bin: string, count: number, command: string): Promise<number[]> {
  const root = benchProject();
  const asked: number[] = [];
  const fake = await startFakeOpenAI(
    Array.from({ length: count + 1 }, (_, i) => () => {
      asked.push(performance.now());
      return i < count
        ? { toolCalls: [{ name: 'execute_command', args: { command } }], chunkSize: 4096 }
        : { text: 'done' };
    }),
  );
  const child = spawn(process.execPath, [...nodeArgs, bin, '--headless', '--root', root, '-p', 'list it'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: benchTempDir('warden-cmd-userhome-'),
      LANG: 'C.UTF-8',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'bench',
      WARDEN_HOME: homeFor(count),
    },
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  await fake.close();
  if (code !== 0 || asked.length !== count + 1)
    throw new Error(`headless run ended ${code} after ${asked.length} requests: ${stderr.slice(0, 500)}`);
  const results = fake.requests.slice(1).map((r) => JSON.stringify(r.body.messages.at(-1)));
  if (!results.every((r) => r.includes('sandboxed')))
    throw new Error(`a command did not run sandboxed: ${results.find((r) => !r.includes('sandboxed'))}`);
  return asked.slice(1).map((t, i) => t - (asked[i] as number));
}

/** One full-screen session's figures (ms; rss in MiB). */
export type TuiFigures = {
  readFirst: number;
  readNext: number;
  touchCard: number;
  touchFile: number;
  rss: number;
};

/**
 * One full-screen process in a pty: `ls -la` twice (runs unasked), then `touch x`: its card, and
 * approve (after the card's grace window, as a person reading it) → the file on disk.
 */
export async function tuiRun(bin: string): Promise<TuiFigures> {
  const root = benchProject();
  const asked: number[] = [];
  const ask = (command: string) => () => {
    asked.push(performance.now());
    return { toolCalls: [{ name: 'execute_command', args: { command } }], chunkSize: 4096 };
  };
  const fake = await startFakeOpenAI([ask('ls -la'), ask('ls -la'), ask('touch x')], {
    whenExhausted: { text: 'All done.' },
  });
  const app = startWarden(
    ['--root', root, 'list and touch'],
    { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench', WARDEN_HOME: homeFor(10), WARDEN_TEST_CWD: root },
    { cols: 120, rows: 40 },
    bin,
    nodeArgs,
  );
  try {
    await app.waitUntil((s) => s.includes('Approval needed') && s.includes('touch x'), 30_000, 'the card');
    const cardAt = performance.now();
    await app.waitFor('keys paused');
    await app.waitUntil((s) => !s.includes('keys paused'), 20_000, 'the grace window to end');
    const target = join(root, 'x');
    const written = new Promise<number>((resolve) => {
      const watcher = watch(root, () => {
        if (!existsSync(target)) return;
        watcher.close();
        resolve(performance.now());
      });
    });
    // A key the card refuses ("card changed, keys paused") is pressed again once it takes keys, as a
    // person would; the figure runs from the press that took.
    let pressed = performance.now();
    app.press('y');
    for (let attempt = 0; attempt < 5; attempt++) {
      let paused = false;
      await app.waitUntil(
        (s) => {
          paused = s.includes('keys paused');
          return paused || !s.includes('Approval needed');
        },
        30_000,
        'the approval',
      );
      if (!paused) break;
      await app.waitUntil((s) => !s.includes('keys paused'), 20_000, 'the grace window to end');
      pressed = performance.now();
      app.press('y');
    }
    const fileAt = await Promise.race([
      written,
      new Promise<number>((_, reject) => setTimeout(() => reject(new Error('x never appeared')), 30_000)),
    ]);
    await app.waitFor('All done.', 30_000);
    const [a0, a1, a2] = asked as [number, number, number];
    const figures = {
      readFirst: a1 - a0,
      readNext: a2 - a1,
      touchCard: cardAt - a2,
      touchFile: fileAt - pressed,
      rss: peakRssMiB(app.pty.pid),
    };
    if (profileDir) {
      app.press('\u0003');
      app.press('\u0003');
      setTimeout(() => app.kill(), 5_000).unref();
    } else app.kill();
    return figures;
  } finally {
    if (!profileDir) app.kill();
    await app.exited;
    await fake.close();
  }
}
