// One pty session of a peer app against the fake model: the scenarios bench/peers.bench.ts runs, and
// the command-path bench's `touch x` against grok-cli in its own run (bench/command-path.bench.ts).
import { readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeOpenAI } from '../test/helpers/fake-openai';
import type { FileWrite, PeerApp } from './peer-apps';
import { benchTempDir } from './temp-dir';

export const CREATE: FileWrite = { path: 'created.txt', content: 'bench\n', kind: 'create' };
export const OVERWRITE: FileWrite = { path: 'existing.txt', content: 'new\n', kind: 'overwrite' };
export const TOUCH_X: FileWrite = { path: 'x', content: '', kind: 'command', command: 'touch x' };
export const TOUCH_Y: FileWrite = { path: 'y', content: '', kind: 'command', command: 'touch y' };

const TYPED_PROMPT = 'write the files';
/**
 * A person reads a card before approving it. Both apps get the same pause after their card is on
 * screen (warden refuses keys for its 400 ms grace window anyway); pressing on the card's first
 * frame would time grok's own post-render work, which no person meets. Not a wait for a state.
 */
export const READ_MS = 450;

/** One process's figures, in milliseconds. */
export type Figures = Partial<Record<Figure, number>>;
export type Figure =
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
export async function peerSession(
  app: PeerApp,
  first: FileWrite,
  second: FileWrite,
  typed: boolean,
): Promise<Figures> {
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
      // What the person waits for with the prompt on the command line: work moved before the request
      // shows here, not only in request → card.
      if (n === 0 && write.kind === 'command') figures.launchCard = performance.now() - started;
      if (write.kind === 'command') figures[n === 0 ? 'commandCard' : 'commandCardNext'] = card;
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
