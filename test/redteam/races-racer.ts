/**
 * A concurrent attacker for the race red-team tests: a separate Node process that, in a tight loop,
 * replaces one project path with something hostile and back — a regular file, a symbolic link to an
 * outside file, a FIFO, a hard link to an outside file, a link to an outside folder, or nothing —
 * while warden's tools run in the test process. Each replacement is a rename over the name, so the
 * tool sees one whole thing or another, never half. It writes `ready` once its first round is done
 * (the test waits for that file, never for a time), and on SIGTERM prints how many rounds it made.
 * Node has no mkfifo: the FIFOs come from a pool made before it starts, and each one the loop moves
 * away goes back to the pool.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SCRIPT = `
const fs = require('node:fs');
const { join } = require('node:path');
const [target, hold, ready, outsideFile, hardSource, outsideDir, kindsArg] = process.argv.slice(2);
const kinds = kindsArg.split(',');
const pool = join(hold, 'fifos');
const fifos = fs.readdirSync(pool).map((n) => join(pool, n));
let stop = false;
let rounds = 0;
process.on('SIGTERM', () => { stop = true; });
const tmp = join(hold, 'next');
const aside = join(hold, 'aside');
function clear() {
  try { fs.renameSync(target, aside); } catch { return; }
  let info;
  try { info = fs.lstatSync(aside); } catch { return; }
  if (info.isFIFO()) { const f = join(pool, 'f' + rounds); fs.renameSync(aside, f); fifos.push(f); }
  else if (info.isDirectory()) fs.rmSync(aside, { recursive: true, force: true });
  else fs.unlinkSync(aside);
}
function place(kind) {
  switch (kind) {
    case 'file': fs.writeFileSync(tmp, 'inside racer\\n'); break;
    case 'link': fs.symlinkSync(outsideFile, tmp); break;
    case 'hard': fs.linkSync(hardSource, tmp); break;
    case 'dirlink': fs.symlinkSync(outsideDir, tmp); break;
    case 'fifo': { const f = fifos.pop(); if (!f) return; fs.renameSync(f, target); return; }
    default: return;
  }
  fs.renameSync(tmp, target);
}
function round() {
  for (let i = 0; i < 200 && !stop; i++) {
    for (const kind of kinds) {
      try { clear(); place(kind); } catch (err) { try { fs.unlinkSync(tmp); } catch {} }
    }
    rounds++;
    if (rounds === 1) fs.writeFileSync(ready, 'ready');
  }
  if (stop) { process.stdout.write('rounds ' + rounds + '\\n'); process.exit(0); }
  setImmediate(round);
}
round();
`;

export type Replacer = {
  child: ChildProcess;
  /** Stops the loop (SIGTERM) and resolves with the number of rounds it made. */
  stop(): Promise<number>;
};

export type ReplaceKind = 'file' | 'link' | 'fifo' | 'hard' | 'dirlink' | 'absent';

export type ReplacerOptions = {
  /** The project path to replace, again and again. */
  target: string;
  /** A folder of the racer's own inside the project (same file system: renames must not cross one). */
  hold: string;
  /** What a `link` points at, and what a `hard` link is a second name of (both outside the project). */
  outsideFile: string;
  hardSource: string;
  /** What a `dirlink` points at. */
  outsideDir: string;
  kinds: readonly ReplaceKind[];
  /** FIFOs in the pool (default 64). */
  fifos?: number;
};

/** Starts the racer; resolves once its first round is done (it writes a file to say so). */
export async function startReplacer(o: ReplacerOptions): Promise<Replacer> {
  mkdirSync(join(o.hold, 'fifos'), { recursive: true });
  const count = o.kinds.includes('fifo') ? (o.fifos ?? 64) : 0;
  if (count > 0)
    execFileSync(
      'mkfifo',
      Array.from({ length: count }, (_, i) => join(o.hold, 'fifos', `p${i}`)),
    );
  const script = join(o.hold, 'racer.cjs');
  const ready = join(o.hold, 'ready');
  writeFileSync(script, SCRIPT);
  const child = spawn(
    process.execPath,
    [script, o.target, o.hold, ready, o.outsideFile, o.hardSource, o.outsideDir, o.kinds.join(',')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (err += c));
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  // Waits for the file it writes after its first round; polls by turns of the event loop, no timer.
  while (!existsSync(ready)) {
    if (exited) throw new Error(`the racer exited before its first round: ${err}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return {
    child,
    async stop() {
      child.kill('SIGTERM');
      await exit;
      const match = /rounds (\d+)/.exec(out);
      if (!match) throw new Error(`the racer did not report its rounds: ${out} ${err}`);
      return Number(match[1]);
    },
  };
}

/** The racer's own names in `hold`, to leave out of "nothing else is left in the project". */
export function racerNames(hold: string): string[] {
  return existsSync(hold) ? readdirSync(hold) : [];
}
