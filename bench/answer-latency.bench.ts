// Answers from elsewhere, timed to the file on disk (issue 31): the real bundled binary against the
// fake model on 127.0.0.1. Three ways a card is answered, each beside its floor in the same run:
//  - the approve key in the app (the floor of the other two person's paths);
//  - `warden approve ID` from a second process, against the running app: spawn → file, and the part
//    inside the running warden (the answer file written → the file on disk);
//  - a PermissionRequest hook in a headless run (a Node script, and a `sh` one-liner), from the
//    model's request to the file, against an allow rule for the same write (no card at all);
// and a direct write of the same bytes (writeFile → the watcher sees it) as the floor of them all.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type FakeStep, startFakeOpenAI } from '../test/helpers/fake-openai';
import { type PtyApp, startWarden, WARDEN_BIN } from '../test/helpers/pty';
import { median, printRow } from './stats';
import { benchTempDir } from './temp-dir';

const RUNS = Number(process.env.ANSWER_BENCH_RUNS ?? 7);
const SIZE = { cols: 120, rows: 40 };
const run = promisify(execFile);

/**
 * Resolves with the time `name` appears in `dir`: the first change of the folder that names it (an
 * answer file is used up at once, so it may be gone again by the time anyone looks).
 */
function fileAppears(dir: string, name: string): Promise<number> {
  mkdirSync(dir, { recursive: true });
  return new Promise((resolve) => {
    const watcher = watch(dir, (_event, changed) => {
      if (changed === name || existsSync(join(dir, name))) {
        watcher.close();
        resolve(performance.now());
      }
    });
  });
}

/** The model: one write_file of `out.txt`, then done. `at` is when the write's request came in. */
async function writeModel() {
  const at = { ms: 0 };
  const steps: FakeStep[] = [
    () => {
      at.ms = performance.now();
      return { toolCalls: [{ name: 'write_file', args: { path: 'out.txt', content: 'answered\n' } }] };
    },
    { text: 'done' },
  ];
  return { fake: await startFakeOpenAI(steps), at };
}

const env = (url: string, home: string) => ({
  OPENAI_BASE_URL: url,
  OPENAI_API_KEY: 'bench',
  WARDEN_HOME: home,
  HOME: home,
});

/** The card in the app, answered by `answer` (given the home and the app); the times to the file on disk. */
async function appCard(
  answer: (home: string, app: PtyApp) => Promise<{ from: number; inside?: number }>,
): Promise<{ total: number; inside?: number }> {
  const root = benchTempDir('warden-bench-answer-');
  const home = benchTempDir('warden-bench-answer-home-');
  const { fake } = await writeModel();
  const app = startWarden(['--root', root, 'write out.txt'], env(fake.url, home), SIZE);
  await app.waitUntil(
    (s) => s.includes('Approval needed') && s.includes('out.txt new file'),
    30_000,
    'the card',
  );
  await app.waitFor('keys paused');
  await app.waitUntil((s) => !s.includes('keys paused'), 20_000, 'grace');
  const onDisk = fileAppears(root, 'out.txt');
  const { from, inside } = await answer(home, app);
  const done = await onDisk;
  app.kill();
  await app.exited;
  await fake.close();
  return { total: done - from, ...(inside !== undefined ? { inside: done - inside } : {}) };
}

/** The person's key in the app. */
async function keyPath(): Promise<number> {
  const times = await appCard(async (_home, app) => {
    const from = performance.now();
    app.press('y');
    return { from };
  });
  return times.total;
}

/** `warden approve ID` from another process: spawn → file, and the answer file → file (inside warden). */
async function approvePath(): Promise<{ total: number; inside: number }> {
  const times = await appCard(async (home) => {
    const own = { ...process.env, WARDEN_HOME: home, HOME: home };
    const pending = await run(process.execPath, [WARDEN_BIN, 'pending', '--json'], { env: own });
    const id = JSON.parse(pending.stdout.trim().split('\n')[0] ?? '{}').id as string;
    const answered = fileAppears(join(home, 'answers'), `${id}.json`);
    const from = performance.now();
    spawn(process.execPath, [WARDEN_BIN, 'approve', id, '--no-wait'], { env: own, stdio: 'ignore' });
    return { from, inside: await answered };
  });
  return { total: times.total, inside: times.inside ?? Number.NaN };
}

/**
 * A headless run whose write is decided by `config` (a hook or a rule): the model's request → the file,
 * and (for a hook) the card's wait as the audit has it (`waitMs`: queued → the hook's decision applied).
 */
async function headlessWrite(config: {
  hooks?: unknown;
  rule?: true;
}): Promise<{ total: number; waitMs: number }> {
  const root = benchTempDir('warden-bench-answer-');
  const home = benchTempDir('warden-bench-answer-home-');
  if (config.hooks) writeFileSync(join(home, 'config.json'), JSON.stringify({ hooks: config.hooks }));
  if (config.rule)
    writeFileSync(
      join(home, 'policy.json'),
      JSON.stringify({ rules: [{ tool: 'write_file', decision: 'allow' }] }),
    );
  const { fake, at } = await writeModel();
  const onDisk = fileAppears(root, 'out.txt');
  const child = run(process.execPath, [WARDEN_BIN, '--headless', '--root', root, '-p', 'write out.txt'], {
    env: { PATH: process.env.PATH ?? '', ...env(fake.url, home) },
  });
  const done = await onDisk;
  await child;
  await fake.close();
  return { total: done - at.ms, waitMs: decisionWait(home) };
}

/** The `waitMs` of the write's decision line in `home`'s audit log (NaN when it has none: no card). */
function decisionWait(home: string): number {
  const dir = join(home, 'audit');
  const lines = readdirSync(dir).flatMap((f) =>
    readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean),
  );
  const decision = lines
    .map((l) => JSON.parse(l) as { tool?: string; phase?: string; waitMs?: number })
    .find((r) => r.tool === 'write_file' && r.phase === 'decision');
  return decision?.waitMs ?? Number.NaN;
}

async function directWrite(): Promise<number> {
  const root = benchTempDir('warden-bench-answer-');
  const onDisk = fileAppears(root, 'out.txt');
  const start = performance.now();
  writeFileSync(join(root, 'out.txt'), 'answered\n');
  return (await onDisk) - start;
}

const hookDir = benchTempDir('warden-bench-answer-hooks-');
const nodeHook = join(hookDir, 'approve.js');
writeFileSync(
  nodeHook,
  `let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PermissionRequest',decision:{behavior:'allow'}}}));});`,
);
const allowJson = JSON.stringify({ hookSpecificOutput: { decision: { behavior: 'allow' } } });
const hooks = {
  node: { PermissionRequest: [{ matcher: 'Write', command: `node ${nodeHook}` }] },
  sh: { PermissionRequest: [{ matcher: 'Write', command: `cat >/dev/null; printf '%s' '${allowJson}'` }] },
};

const rows: Record<string, number[]> = {
  direct: [],
  key: [],
  approve: [],
  approveInside: [],
  rule: [],
  hookNode: [],
  hookNodeWait: [],
  hookSh: [],
  hookShWait: [],
};
// Interleaved, so a busy moment of the shared machine weighs on every path alike.
for (let i = 0; i < RUNS; i++) {
  rows.direct?.push(await directWrite());
  rows.key?.push(await keyPath());
  const a = await approvePath();
  rows.approve?.push(a.total);
  rows.approveInside?.push(a.inside);
  rows.rule?.push((await headlessWrite({ rule: true })).total);
  const node = await headlessWrite({ hooks: hooks.node });
  rows.hookNode?.push(node.total);
  rows.hookNodeWait?.push(node.waitMs);
  const sh = await headlessWrite({ hooks: hooks.sh });
  rows.hookSh?.push(sh.total);
  rows.hookShWait?.push(sh.waitMs);
}
const m = (k: string) => median(rows[k] ?? []);
const ms = (v: number) => `${v.toFixed(1)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
console.log(`medians of ${RUNS} runs each`);
printRow('direct write → on disk (the floor)', ms(m('direct')));
printRow('app: approve key → file on disk', ms(m('key')));
printRow(
  'warden approve ID (spawned) → file on disk',
  `${ms(m('approve'))}  (${ratio(m('approve'), m('key'))} the key)`,
);
printRow(
  '  of which the answer file → file on disk',
  `${ms(m('approveInside'))}  (${ratio(m('approveInside'), m('key'))} the key)`,
);
printRow('headless, allow rule: request → file (no card)', ms(m('rule')));
printRow(
  'headless, PermissionRequest hook (node script)',
  `${ms(m('hookNode'))}  (${ratio(m('hookNode'), m('rule'))} the rule)`,
);
printRow('  of which the card waited for the hook (waitMs)', ms(m('hookNodeWait')));
printRow(
  'headless, PermissionRequest hook (sh printf)',
  `${ms(m('hookSh'))}  (${ratio(m('hookSh'), m('rule'))} the rule)`,
);
printRow('  of which the card waited for the hook (waitMs)', ms(m('hookShWait')));
