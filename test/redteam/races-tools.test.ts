/**
 * Red team, races: warden's own file tools against a concurrent attacker. A separate process (a
 * sandboxed command left running, a sub-agent's) replaces a project file, in a tight loop, with a
 * link out, a FIFO, a hard link to an outside file, a link to an outside folder, nothing, or a plain
 * file again — or exchanges a folder on the path with a link to an outside folder — while read_file,
 * write_file and edit_file run 80 times each through the real gate. Asserted: the sentinel folder
 * outside is exactly as it was (content, names, mtimes), no outside byte reaches the model, every
 * failure is an error with a reason the model can act on, no call hangs on a FIFO, and nothing is
 * left in the project but the file and the racer's own folder (no temp file of the tools).
 */
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ToolResultEnvelope } from '../../src/protocol';
import { createEditFileTool } from '../../src/tools/fs/edit-file';
import { createReadFileTool } from '../../src/tools/fs/read-file';
import { RACE_FREE_FS } from '../../src/tools/fs/safe-fs';
import { createWriteFileTool } from '../../src/tools/fs/write-file';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';
import { findSwapper, startSwapper } from '../helpers/swapper';
import { type ReplaceKind, startReplacer } from './races-racer';
import { HARD_TEXT, makeSentinel, SECRET, type Sentinel, treeOf } from './races-sentinel';

const ROUNDS = 80;
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'warden-race-swapper-')));
const swapper = findSwapper(scratch);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let h: GateHarness | undefined;
let sentinel: Sentinel | undefined;
afterEach(() => {
  h?.cleanup();
  if (sentinel) rmSync(sentinel.dir, { recursive: true, force: true });
  h = undefined;
  sentinel = undefined;
});

const tools = () => [createReadFileTool(), createWriteFileTool(), createEditFileTool()];

/**
 * Every way a raced call may fail: each names what it found and that nothing was read or written.
 * A reason outside this list (a stack, "undefined", an errno without words) is a finding.
 */
const CLEAR_REASONS = [
  /is a symbolic link; it is not followed/,
  /is not a regular file/,
  /does not exist/,
  /changed on disk while (warden opened it|writing|editing)/,
  /is a directory/,
  /resolves to .*, outside the project/,
  /is a symbolic link whose target does not exist; it cannot be checked/,
  /: old_string .*not found|was not found|no match|not found in/i,
  /A parent of .* is a file, not a folder/,
  /already exists \(a file or a link was put there\)/,
];

/** Outcomes by status, plus `leaks` (an outside link's text reached the model) and `hardReads` (see below). */
type Tally = Record<string, number> & { leaks: number; hardReads: number };

function record(tally: Tally, reasons: Set<string>, result: ToolResultEnvelope): void {
  tally[result.status] = (tally[result.status] ?? 0) + 1;
  const text = `${result.output ?? ''} ${result.reason ?? ''}`;
  // A hard link's content is the inode's (see the report); a link out or a folder link must never leak.
  if (text.includes(SECRET)) tally.leaks++;
  // A hard link is the outside file's inode under a project name: reading it reads that inode, by design
  // (the sandbox masks credentials, so a command cannot name them to link them). Counted, for the log.
  if (text.includes(HARD_TEXT)) tally.hardReads++;
  if (result.status !== 'executed') reasons.add(result.reason ?? '(no reason)');
}

function unclear(reasons: Set<string>): string[] {
  return [...reasons].filter((r) => !CLEAR_REASONS.some((re) => re.test(r)));
}

/** read_file, write_file and edit_file of `path`, ROUNDS times each, interleaved, as one agent. */
async function hammer(harness: GateHarness, path: string, tally: Tally, reasons: Set<string>) {
  // ROUNDS rounds, and on until one call got through the race (a loaded machine can lose every one of
  // the first rounds to the racer), at most five times as many.
  for (let i = 0; i < ROUNDS || ((tally.executed ?? 0) === 0 && i < ROUNDS * 5); i++) {
    record(tally, reasons, await harness.call('read_file', { path }));
    record(tally, reasons, await harness.call('write_file', { path, content: `inside racer\nwrite ${i}\n` }));
    record(
      tally,
      reasons,
      await harness.call('edit_file', {
        path,
        edits: [{ old_string: 'inside racer', new_string: `edited ${i}` }],
      }),
    );
  }
}

describe.skipIf(!RACE_FREE_FS)(
  'a file replaced in a loop by a link, a FIFO, a hard link, a folder link',
  () => {
    it.each<[string, ReplaceKind[]]>([
      ['all of them', ['file', 'link', 'fifo', 'hard', 'dirlink', 'absent']],
      ['a link out and back', ['file', 'link']],
      ['a FIFO and back', ['file', 'fifo']],
      ['a hard link to an outside file and back', ['file', 'hard']],
    ])(
      `%s: ${ROUNDS}× read, write, edit — outside untouched, no hang, clear errors`,
      async (_name, kinds) => {
        h = createGateHarness({ mode: 'auto-edit', tools: tools() });
        sentinel = makeSentinel({ 't.txt': `${SECRET}\n` });
        mkdirSync(join(h.root, 'work'));
        writeFileSync(join(h.root, 'work', 't.txt'), 'inside racer\n');
        const before = sentinel.snapshot();
        const hold = join(h.root, '.racer');
        const racer = await startReplacer({
          target: join(h.root, 'work', 't.txt'),
          hold,
          outsideFile: sentinel.secretFile,
          hardSource: sentinel.hardSource,
          outsideDir: sentinel.dir,
          kinds,
        });
        const tally: Tally = { leaks: 0, hardReads: 0 };
        const reasons = new Set<string>();
        let rounds = 0;
        try {
          await hammer(h, 'work/t.txt', tally, reasons);
        } finally {
          rounds = await racer.stop();
        }
        expect(rounds).toBeGreaterThan(ROUNDS);
        expect(sentinel.snapshot()).toEqual(before);
        expect(tally.leaks).toBe(0);
        expect(unclear(reasons)).toEqual([]);
        // Every call ended: executed, or an error / a block with a reason.
        expect(
          Object.entries(tally)
            .filter(([k]) => k !== 'leaks' && k !== 'hardReads')
            .reduce((n, [, v]) => n + v, 0),
        ).toBe(3 * ROUNDS);
        expect(tally.executed ?? 0).toBeGreaterThan(0);
        // Nothing but the target (whatever the racer left there) and the racer's own folder.
        expect(treeOf(h.root, ['.racer'])).toEqual(expect.arrayContaining(['work']));
        expect(treeOf(h.root, ['.racer']).filter((p) => p !== 'work' && p !== 'work/t.txt')).toEqual([]);
        // A hard link was replaced, never written through: the outside inode keeps its text.
        expect(sentinel.snapshot()['hard.txt']).toBe(before['hard.txt']);
      },
      120_000,
    );
  },
);

describe.skipIf(!RACE_FREE_FS || swapper.kind === 'none')(
  'a folder on the path exchanged with a link to an outside folder (renameat2)',
  () => {
    it.each([
      ['the parent folder', 'work', 'work/t.txt'],
      ['an ancestor three levels up', 'deep', 'deep/a/b/t.txt'],
    ])(
      `%s: ${ROUNDS}× read, write, edit — outside untouched, clear errors`,
      async (_name, swapped, path) => {
        h = createGateHarness({ mode: 'auto-edit', tools: tools() });
        // The outside folder mirrors the project's: the same names, the secret in them.
        const inner = path.slice(swapped.length + 1);
        sentinel = makeSentinel({ [inner]: `inside racer\n${SECRET}\n` });
        mkdirSync(join(h.root, path, '..'), { recursive: true });
        writeFileSync(join(h.root, path), 'inside racer\n');
        symlinkSync(sentinel.dir, join(h.root, 'swap'));
        const before = sentinel.snapshot();
        const swapping = await startSwapper(
          swapper as Exclude<typeof swapper, { kind: 'none' }>,
          join(h.root, swapped),
          join(h.root, 'swap'),
        );
        const tally: Tally = { leaks: 0, hardReads: 0 };
        const reasons = new Set<string>();
        let swaps = 0;
        try {
          await hammer(h, path, tally, reasons);
        } finally {
          swaps = await swapping.stop();
        }
        expect(swaps).toBeGreaterThan(ROUNDS);
        expect(sentinel.snapshot()).toEqual(before);
        expect(tally.leaks).toBe(0);
        expect(unclear(reasons)).toEqual([]);
        expect(tally.executed ?? 0).toBeGreaterThan(0);
        // Whichever of the two names holds the folder now, no temp file was left in it or beside it.
        expect(treeOf(h.root).filter((p) => p.includes('warden-tmp'))).toEqual([]);
      },
      120_000,
    );
  },
);
