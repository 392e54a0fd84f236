/**
 * Red team, races: checkpoints against a concurrent attacker. While a process exchanges a project
 * folder with a link to an outside folder (renameat2, in a tight loop), revert_turn writes the turn's
 * files back and removes the ones it created, 80 times, through both stores (the shadow git
 * repository and the copies fallback); and checkpoints are taken, and a turn reverted, while the
 * project's own `.git` is exchanged with a link to another repository. Asserted: the sentinel folder
 * and the other repository are exactly as they were (content, names, mtimes), and every file not put
 * back is reported, by name, with a reason (the copies store used to reject the whole revert at the
 * first such file, leaving the rest of the turn unrestored and unnamed).
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CheckpointStore, createCheckpointStore } from '../../src/agent/checkpoints';
import { findGit } from '../../src/checkpoint/git-env';
import { RACE_FREE_FS, removeFileSafely, writeFileSafely } from '../../src/tools/fs/safe-fs';
import { createRevertTurnTool } from '../../src/tools/interact/revert-turn';
import { findSwapper, type SwapperCommand, startSwapper } from '../helpers/swapper';
import { tempDirs } from '../helpers/temp-dirs';
import { makeSentinel, SECRET } from './races-sentinel';

const ROUNDS = 80;
const SNAPSHOTS = 20;
const temp = tempDirs();
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'warden-race-swapper-')));
const swapper = findSwapper(scratch);
const git = findGit();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const canRace = RACE_FREE_FS && swapper.kind !== 'none';

function storeFor(kind: 'git' | 'copies', root: string, home: string): CheckpointStore {
  return createCheckpointStore({
    home,
    root,
    sessionId: 'session-races',
    files: {
      write: (path, bytes, mode) => writeFileSafely({ path, root }, bytes, mode),
      remove: (path) => removeFileSafely({ path, root }),
    },
    ...(kind === 'copies' ? { git: null } : {}),
  });
}

/** One turn that changes work/a.txt and creates work/new.txt, as each store learns of it. */
async function turn(store: CheckpointStore, root: string): Promise<string> {
  store.beginTurn();
  await store.beforeChange('write_file');
  await store.recordPreImage(join(root, 'work', 'a.txt'), {
    kind: 'file',
    bytes: Buffer.from('before\n'),
    mode: 0o644,
  });
  writeFileSync(join(root, 'work', 'a.txt'), 'after\n');
  await store.recordPreImage(join(root, 'work', 'new.txt'), { kind: 'absent' });
  writeFileSync(join(root, 'work', 'new.txt'), 'made\n');
  return (await store.endTurn())?.turnId ?? '';
}

describe.skipIf(!canRace)('revert_turn while the folder is exchanged with a link out', () => {
  it.each(['git', 'copies'] as const)(
    `%s store: ${ROUNDS} reverts of one turn's files — outside untouched, each file restored or reported`,
    async (kind) => {
      if (kind === 'git' && !git) return;
      const root = temp('warden-race-cp-proj-');
      const home = temp('warden-race-cp-home-');
      mkdirSync(join(root, 'work'));
      writeFileSync(join(root, 'work', 'a.txt'), 'before\n');
      const store = storeFor(kind, root, home);
      const turnId = await turn(store, root);
      const tool = createRevertTurnTool(store);
      const sentinel = makeSentinel({ 'a.txt': `${SECRET}\n`, 'new.txt': `${SECRET}\n` });
      try {
        symlinkSync(sentinel.dir, join(root, 'swap'));
        const before = sentinel.snapshot();
        const swapping = await startSwapper(
          swapper as SwapperCommand,
          join(root, 'work'),
          join(root, 'swap'),
        );
        const outcomes: Record<string, number> = {};
        const reasons = new Set<string>();
        let swaps = 0;
        try {
          // ROUNDS reverts, and on until one put a file back through the race (a loaded machine can lose
          // every one of the first to the swapper), at most five times as many.
          const through = () => (outcomes.restored ?? 0) + (outcomes.removed ?? 0) > 0;
          for (let i = 0; i < ROUNDS || (!through() && i < ROUNDS * 5); i++) {
            // A revert of chosen files leaves the turn revertable: the same attack, again and again.
            const result = await tool.execute(
              { turns: 1, turn: turnId, paths: ['work/a.txt', 'work/new.txt'] },
              { signal: new AbortController().signal } as never,
            );
            const data = (result.ok ? result.data : undefined) as
              | { restored: string[]; removed: string[]; skipped: { path: string; reason: string }[] }
              | undefined;
            if (!data) {
              outcomes.failed = (outcomes.failed ?? 0) + 1;
              reasons.add(result.ok ? '' : result.error);
              continue;
            }
            // Every one of the two files is accounted for: restored, removed, or not restored with a reason.
            expect(data.restored.length + data.removed.length + data.skipped.length).toBe(2);
            for (const s of data.skipped) reasons.add(`${s.path}: ${s.reason}`);
            outcomes.restored = (outcomes.restored ?? 0) + data.restored.length;
            outcomes.removed = (outcomes.removed ?? 0) + data.removed.length;
            outcomes.skipped = (outcomes.skipped ?? 0) + data.skipped.length;
          }
        } finally {
          swaps = await swapping.stop();
        }
        expect(swaps).toBeGreaterThan(ROUNDS);
        expect(sentinel.snapshot()).toEqual(before);
        // A failure names the file and says what happened (never a bare errno, never a whole revert lost).
        expect(outcomes.failed ?? 0).toBe(0);
        for (const r of reasons)
          expect(r).toMatch(
            /^work\/(a|new)\.txt: .*(changed on disk|swapped|not a folder|symbolic link|a file, not a folder|ENOTDIR|ELOOP)/,
          );
        expect((outcomes.restored ?? 0) + (outcomes.removed ?? 0)).toBeGreaterThan(0);
      } finally {
        rmSync(sentinel.dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

describe.skipIf(!canRace || !git)(
  "checkpoints taken while the project's .git is exchanged with a link to another repository",
  () => {
    it(`${SNAPSHOTS} checkpoints and a revert: the other repository is untouched, nothing of it written, created or removed`, async () => {
      const root = temp('warden-race-dotgit-proj-');
      const home = temp('warden-race-dotgit-home-');
      const other = temp('warden-race-other-repo-');
      const env = { PATH: process.env.PATH ?? '', HOME: other, GIT_CONFIG_NOSYSTEM: '1' };
      const run = (cwd: string, ...args: string[]) =>
        execFileSync('git', args, { cwd, env, stdio: 'ignore' });
      for (const repo of [root, other]) {
        run(repo, 'init', '-q');
        writeFileSync(join(repo, 'README'), repo === other ? `${SECRET} other repo\n` : 'project\n');
        run(repo, 'add', 'README');
        run(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first');
      }
      writeFileSync(join(other, '.git', 'marker'), `${SECRET} in the other .git\n`);
      mkdirSync(join(root, 'work'));
      writeFileSync(join(root, 'work', 'a.txt'), 'before\n');
      symlinkSync(join(other, '.git'), join(root, 'gitlink'));
      const otherBefore = snapshotTree(other);
      const store = storeFor('git', root, home);
      const swapping = await startSwapper(
        swapper as SwapperCommand,
        join(root, '.git'),
        join(root, 'gitlink'),
      );
      let failed = 0;
      let swaps = 0;
      try {
        for (let i = 0; i < SNAPSHOTS; i++) {
          store.beginTurn();
          await store.beforeChange('execute_command').catch(() => failed++);
          writeFileSync(join(root, 'work', 'a.txt'), `change ${i}\n`);
          await store.endTurn().catch(() => failed++);
        }
        await store.revert({ turns: 3 });
      } finally {
        swaps = await swapping.stop();
      }
      expect(swaps).toBeGreaterThan(SNAPSHOTS);
      // Whichever name holds the project's .git now, put it back to compare.
      if (!realpathSync(join(root, '.git')).startsWith(root)) {
        execFileSync('python3', [
          '-c',
          'import os,sys; os.rename(sys.argv[1], sys.argv[3]); os.rename(sys.argv[2], sys.argv[1]); os.rename(sys.argv[3], sys.argv[2])',
          join(root, '.git'),
          join(root, 'gitlink'),
          join(root, 'tmp-swap'),
        ]);
      }
      // Nothing of the other repository was written, created or removed (names, sizes, mtimes).
      expect(snapshotTree(other)).toEqual(otherBefore);
      // Not asserted: the project's own .git. A checkpoint taken while it was named gitlink lists its files
      // under that name, and a revert then writes (or removes) them by that name — wherever .git is at
      // that moment. Only a process outside the sandbox can rename .git (inside, it is a mount point).
      expect(readFileSync(join(root, 'work', 'a.txt'), 'utf8')).toMatch(/^change /);
    }, 120_000);
  },
);

/** Names, kinds, sizes and mtimes under `dir` (links not followed), for before/after comparison. */
function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const list = execFileSync('find', [dir, '-printf', '%P %y %s %T@\\n']).toString();
  for (const line of list.split('\n').filter(Boolean)) {
    const [name, ...rest] = line.split(' ');
    out[name ?? ''] = rest.join(' ');
  }
  return out;
}
