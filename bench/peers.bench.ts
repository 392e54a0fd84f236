// warden against grok-cli in the same run (issue 16): both in the same pty harness, against the
// same fake OpenAI server on 127.0.0.1, a fresh process per run, the two apps alternating.
// (a) model request → the first approval card of a session on screen, with the prompt on the
// command line (cold) or typed once the app is ready; (b) approve key → file on disk, for a new
// file and for an existing one replaced whole; (c) the same for a command (`touch x`, then `touch y`:
// warden runs it sandboxed with a checkpoint, grok runs it as it is), and for `touch x` launch → card
// as well (its prompt is on the command line). Prints medians and the warden/grok ratios.
// grok-cli is not part of this repository: build it outside and name it in WARDEN_PEER_GROK
// (see the message printed when it is missing). WARDEN_BASELINE=<another dist/warden.js> adds that
// build to the same round (before/after); WARDEN_CPU_PROF=<dir> profiles each warden process;
// PEERS_RUNS sets the runs per app and scenario (default 5); PEERS_ONLY=command runs only (c), as
// for a profile of the command path, PEERS_ONLY=files only (a) and (b).
import { benchTempDir } from './temp-dir';
import { existsSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAI } from '../test/helpers/fake-openai';
import { type FileWrite, grokApp, type PeerApp, wardenApp } from './peer-apps';
import { median } from './stats';

const RUNS = Number(process.env.PEERS_RUNS ?? 5);
const CREATE: FileWrite = { path: 'created.txt', content: 'bench\n', kind: 'create' };
const OVERWRITE: FileWrite = { path: 'existing.txt', content: 'new\n', kind: 'overwrite' };
const TOUCH_X: FileWrite = { path: 'x', content: '', kind: 'command', command: 'touch x' };
const TOUCH_Y: FileWrite = { path: 'y', content: '', kind: 'command', command: 'touch y' };
const TYPED_PROMPT = 'write the files';
/**
 * A person reads a card before approving it. Both apps get the same pause after their card is on
 * screen (warden refuses keys for its 400 ms grace window anyway); pressing on the card's first
 * frame would time grok's own post-render work, which no person meets. Not a wait for a state.
 */
const READ_MS = 450;

/** One process's figures, in milliseconds. */
type Figures = Partial<Record<Figure, number>>;
type Figure =
  | 'ready'
  | 'cardCold'
  | 'cardTyped'
  | 'cardNext'
  | 'createFirst'
  | 'createNext'
  | 'overwriteFirst'
  | 'overwriteNext'
  | 'launchCard'
  | 'commandCard'
  | 'commandCardNext'
  | 'commandFirst'
  | 'commandNext';

/** Resolves with the time the file holds `content`; armed before the key is pressed. */
function whenWritten(root: string, write: FileWrite): Promise<number> {
  const target = join(root, write.path);
  return new Promise((resolve) => {
    const check = () => {
      let now = '';
      try {
        now = readFileSync(target, 'utf8');
      } catch {
        return;
      }
      if (now !== write.content) return;
      watcher.close();
      resolve(performance.now());
    };
    const watcher = watch(root, check);
  });
}

/**
 * One session of `app`: two file writes in a row, the first with the first card of the session.
 * `typed` starts at an empty input and types the prompt key by key, each after its echo.
 */
async function session(app: PeerApp, first: FileWrite, second: FileWrite, typed: boolean): Promise<Figures> {
  const root = benchTempDir(`peers-${app.name}-`);
  writeFileSync(join(root, OVERWRITE.path), 'old\n');
  let requestAt = 0;
  const fake = await startFakeOpenAI(
    [first, second].map((write) => () => {
      requestAt = performance.now();
      return { toolCalls: [app.call(write)], chunkSize: 4096 };
    }),
    { whenExhausted: { text: 'All done.' } },
  );
  const started = performance.now();
  const pty = app.start(root, fake.url, typed ? undefined : TYPED_PROMPT);
  const figures: Figures = {};
  try {
    await pty.waitUntil(app.ready, 30_000, `${app.name} ready`);
    figures.ready = performance.now() - started;
    if (typed) {
      for (let i = 1; i <= TYPED_PROMPT.length; i++) {
        pty.press(TYPED_PROMPT[i - 1] as string);
        await pty.waitUntil((s) => app.echoes(s, TYPED_PROMPT.slice(0, i)), 20_000, 'the echo');
      }
      pty.press('\r');
    }
    for (const [n, write] of [first, second].entries()) {
      await pty.waitUntil((s) => app.cardShown(s, write), 30_000, `${app.name} card of ${write.path}`);
      const card = performance.now() - requestAt;
      if (write.kind === 'command') figures[n === 0 ? 'commandCard' : 'commandCardNext'] = card;
      // What the person waits for with the prompt on the command line: work moved before the request
      // shows here, not only in request → card.
      if (n === 0 && write.kind === 'command') figures.launchCard = performance.now() - started;
      else if (n === 1) figures.cardNext = card;
      else figures[typed ? 'cardTyped' : 'cardCold'] = card;
      const read = new Promise((r) => setTimeout(r, READ_MS));
      await app.untilKeysTaken(pty);
      await read;
      const written = whenWritten(root, write);
      const pressed = performance.now();
      pty.press(app.approveKey);
      figures[`${write.kind}${n === 0 ? 'First' : 'Next'}`] = (await written) - pressed;
    }
  } finally {
    pty.kill();
    await pty.exited;
    await fake.close();
  }
  return figures;
}

const grokScript = process.env.WARDEN_PEER_GROK;
if (!grokScript || !existsSync(grokScript)) {
  console.log(
    `grok-cli is absent${grokScript ? ` (${grokScript} does not exist)` : ''}: nothing to compare.\n` +
      'Build it outside this repository and name its entry, e.g.\n' +
      '  git clone https://github.com/superagent-ai/grok-cli /work/peers/grok-cli\n' +
      '  cd /work/peers/grok-cli && git checkout ad177ec   # 0.0.34, the last Ink version\n' +
      '  npm ci && npm run build\n' +
      '  WARDEN_PEER_GROK=/work/peers/grok-cli/dist/index.js npx tsx bench/peers.bench.ts',
  );
  process.exit(0);
}

// WARDEN_BASELINE: another warden build (e.g. main's) in the same run, for a before/after figure.
const baseline = process.env.WARDEN_BASELINE;
const apps = [
  wardenApp(),
  grokApp(grokScript),
  ...(baseline && existsSync(baseline) ? [wardenApp(baseline, 'baseline')] : []),
];
const results = new Map<string, Figures[]>(apps.map((a) => [a.name, []]));
const failures: string[] = [];
/** One session; a run that goes wrong (an app dropped a key, say) is left out and reported, not fatal. */
async function measured(app: PeerApp, first: FileWrite, second: FileWrite, typed: boolean): Promise<void> {
  try {
    results.get(app.name)?.push(await session(app, first, second, typed));
  } catch (err) {
    const file = join(tmpdir(), `peers-failed-${app.name}-${failures.length}.txt`);
    writeFileSync(file, String(err));
    failures.push(
      `${app.name} ${first.kind === 'command' ? 'command' : typed ? 'typed' : 'cold'}: ${String(err).split('\n')[0]} (screen in ${file})`,
    );
  }
}
for (let run = 0; run < RUNS; run++) {
  // Alternate who goes first, so neither always meets the quieter (or busier) moment.
  const order = run % 2 === 0 ? apps : [...apps].reverse();
  if (process.env.PEERS_ONLY !== 'command') {
    for (const app of order) await measured(app, CREATE, OVERWRITE, false);
    for (const app of order) await measured(app, OVERWRITE, CREATE, true);
  }
  if (process.env.PEERS_ONLY !== 'files')
    for (const app of order) await measured(app, TOUCH_X, TOUCH_Y, false);
}

const medianOf = (name: string, figure: Figure) =>
  median((results.get(name) ?? []).flatMap((f) => (f[figure] === undefined ? [] : [f[figure] as number])));
const rows: [string, Figure][] = [
  ['launch → input ready', 'ready'],
  ['request → first card, prompt on command line (cold)', 'cardCold'],
  ['request → first card, prompt typed', 'cardTyped'],
  ['request → second card of the session', 'cardNext'],
  ['approve → new file on disk, first card', 'createFirst'],
  ['approve → new file on disk, second card', 'createNext'],
  ['approve → file replaced on disk, first card', 'overwriteFirst'],
  ['approve → file replaced on disk, second card', 'overwriteNext'],
  ['`touch x`: request → card (the first command)', 'commandCard'],
  ['`touch x`: launch → card (prompt on command line)', 'launchCard'],
  ['`touch y`: request → card (the second command)', 'commandCardNext'],
  ['`touch x`: approve → file on disk', 'commandFirst'],
  ['`touch y`: approve → file on disk', 'commandNext'],
];
console.log(`medians of ${RUNS} runs each (ms), fresh process per run, the apps alternating`);
const names = apps.map((a) => a.name);
const others = names.filter((n) => n !== 'grok');
console.log(
  `${'figure'.padEnd(52)}${names.map((n) => n.padStart(9)).join('')}${others.map((n) => `${n}/grok`.padStart(16)).join('')}`,
);
for (const [label, figure] of rows) {
  const grok = medianOf('grok', figure);
  const values = names.map((n) => medianOf(n, figure).toFixed(1).padStart(9)).join('');
  const ratios = others.map((n) => `${(medianOf(n, figure) / grok).toFixed(2)}×`.padStart(16)).join('');
  console.log(`${label.padEnd(52)}${values}${ratios}`);
}
for (const failure of failures) console.log(`left out: ${failure}`);
console.log(`keys pressed ${READ_MS} ms after the card showed (a person reading it), or later if refused`);
for (const app of apps) console.log(`${app.name} writes: ${app.durability}`);
