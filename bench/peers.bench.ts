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
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FileWrite, grokApp, type PeerApp, wardenApp } from './peer-apps';
import {
  CREATE,
  type Figure,
  type Figures,
  OVERWRITE,
  peerSession,
  READ_MS,
  TOUCH_X,
  TOUCH_Y,
} from './peer-session';
import { median } from './stats';

const RUNS = Number(process.env.PEERS_RUNS ?? 5);
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
    results.get(app.name)?.push(await peerSession(app, first, second, typed));
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
