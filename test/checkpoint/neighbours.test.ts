/**
 * Undo next to a restart and a neighbour (issue 29 §1), through the real shadow-git store: turn ids
 * stay unique when a session is continued; a turn's changes are its own calls' (a neighbour's file is
 * shown as someone else's and never reverted); a file changed since is kept unless a person approved;
 * a failed end checkpoint is marked and undo names what it cannot restore; a damaged checkpoint
 * restores what it can and names the rest.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CheckpointStore,
  createCheckpointStore,
  projectCheckpointDir,
} from '../../src/agent/checkpoints';
import { removeFileSafely, writeFileSafely } from '../../src/tools/fs/safe-fs';
import { tempDirs } from '../helpers/temp-dirs';

const temp = tempDirs();

function setup(files: Record<string, string> = {}) {
  const root = temp('warden-nb-proj-');
  const home = temp('warden-nb-home-');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return { root, home };
}

function store(root: string, home: string, sessionId = 'session-aaaa'): CheckpointStore {
  return createCheckpointStore({
    home,
    root,
    sessionId,
    files: {
      write: (path, bytes, mode) => writeFileSafely({ path, root }, bytes, mode),
      remove: (path) => removeFileSafely({ path, root }),
    },
  });
}

/** One call of a turn, as the gate runs it: the checkpoint before, the change, the checkpoint after. */
async function call(s: CheckpointStore, change: () => void): Promise<void> {
  const after = await s.beforeChange('execute_command');
  change();
  await after?.();
}

const read = (root: string, p: string) => readFileSync(join(root, p), 'utf8');

describe('undo after a restart', () => {
  it('a continued session numbers its turns on: two turns revert as two, and a later turn stays undoable', async () => {
    const { root, home } = setup({ 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'c.txt': 'c0\n' });
    const first = store(root, home);
    const t1 = first.beginTurn();
    await call(first, () => writeFileSync(join(root, 'a.txt'), 'a1\n'));
    await first.endTurn();
    await first.settled();
    // --continue: the same session id in a new process.
    const again = store(root, home);
    const t2 = again.beginTurn();
    expect(t2).not.toBe(t1);
    await call(again, () => writeFileSync(join(root, 'b.txt'), 'b1\n'));
    await again.endTurn();
    const t3 = again.beginTurn();
    expect(new Set([t1, t2, t3]).size).toBe(3);
    await call(again, () => writeFileSync(join(root, 'c.txt'), 'c1\n'));
    await again.endTurn();
    expect((await again.revert({ turns: 2 })).turns).toBe(2);
    expect([read(root, 'a.txt'), read(root, 'b.txt'), read(root, 'c.txt')]).toEqual(['a1\n', 'b0\n', 'c0\n']);
    const last = await again.revert({ turns: 1 });
    expect(last.turns).toBe(1);
    expect(read(root, 'a.txt')).toBe('a0\n');
  });
});

describe('undo next to another warden', () => {
  it("a neighbour's file written between the turn's calls is someone else's: listed as such, never reverted", async () => {
    const { root, home } = setup({ 'a.txt': 'a0\n', 'c.txt': 'c0\n' });
    const s = store(root, home);
    s.beginTurn();
    await call(s, () => writeFileSync(join(root, 'a.txt'), 'a1\n'));
    writeFileSync(join(root, 'theirs.txt'), 'the neighbour\n');
    await call(s, () => writeFileSync(join(root, 'c.txt'), 'c1\n'));
    const ended = await s.endTurn();
    expect(ended?.changes.map((c) => [c.path, c.by ?? 'turn'])).toEqual([
      ['a.txt', 'turn'],
      ['c.txt', 'turn'],
      ['theirs.txt', 'someone-else'],
    ]);
    const done = await s.revert({ turns: 1 });
    expect(done.restored.sort()).toEqual(['a.txt', 'c.txt']);
    expect(done.removed).toEqual([]);
    expect(read(root, 'theirs.txt')).toBe('the neighbour\n');
  });

  it('a file changed since by someone else is kept, shown with both versions; a person-approved revert overwrites it', async () => {
    const { root, home } = setup({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const s = store(root, home);
    s.beginTurn();
    await call(s, () => {
      writeFileSync(join(root, 'a.txt'), 'the turn\n');
      writeFileSync(join(root, 'b.txt'), 'b1\n');
    });
    await s.endTurn();
    writeFileSync(join(root, 'a.txt'), 'the editor\n');
    const plan = await s.plan({ turns: 1 });
    const a = plan.changes.find((c) => c.path === 'a.txt');
    expect(a).toMatchObject({ after: 'the turn\n', changedSince: { now: 'the editor\n' } });
    expect(a?.notRestorable).toMatch(/changed since by someone else/);
    const kept = await s.revert({ turns: 1 });
    expect(kept.restored).toEqual(['b.txt']);
    expect(kept.skipped).toEqual([
      { path: 'a.txt', reason: expect.stringMatching(/changed since by someone else/) },
    ]);
    expect(read(root, 'a.txt')).toBe('the editor\n');
  });

  it('overwriteChanged (a person approved the card) puts the turn back over the newer version', async () => {
    const { root, home } = setup({ 'a.txt': 'a0\n' });
    const s = store(root, home);
    s.beginTurn();
    await call(s, () => writeFileSync(join(root, 'a.txt'), 'the turn\n'));
    await s.endTurn();
    writeFileSync(join(root, 'a.txt'), 'the editor\n');
    const done = await s.revert({ turns: 1 }, { overwriteChanged: true });
    expect(done.restored).toEqual(['a.txt']);
    expect(read(root, 'a.txt')).toBe('a0\n');
  });
});

describe('a checkpoint that failed or was damaged', () => {
  it('a failed end checkpoint marks the turn; undo reverts that turn (not the one before) and names what it cannot know', async () => {
    const { root, home } = setup({ 'old.txt': 'o0\n', 'a.txt': 'a0\n', 'late.txt': 'l0\n' });
    const s = store(root, home);
    s.beginTurn();
    await call(s, () => writeFileSync(join(root, 'old.txt'), 'o1\n'));
    await s.endTurn();
    s.beginTurn();
    await call(s, () => writeFileSync(join(root, 'a.txt'), 'a1\n'));
    // The last call's checkpoint after it never comes (left open), and a neighbour holds git's lock.
    await s.beforeChange('execute_command');
    writeFileSync(join(root, 'late.txt'), 'l1\n');
    const lock = join(projectCheckpointDir(home, root), 'git', 'index.lock');
    writeFileSync(lock, '');
    const ended = await s.endTurn();
    expect(ended?.incomplete).toMatch(/checkpoint at the end of the turn failed/);
    rmSync(lock);
    const done = await s.revert({ turns: 1 });
    expect(done.restored).toEqual(['a.txt']);
    expect(done.skipped).toEqual([
      { path: 'late.txt', reason: expect.stringMatching(/not known.*not restored/) },
    ]);
    expect([read(root, 'old.txt'), read(root, 'a.txt'), read(root, 'late.txt')]).toEqual([
      'o1\n',
      'a0\n',
      'l1\n',
    ]);
  });

  it('a missing blob: the other files are restored, the damaged one is named with why', async () => {
    const { root, home } = setup({ 'a.txt': 'alpha zero\n', 'b.txt': 'bravo zero\n' });
    const s = store(root, home);
    s.beginTurn();
    await call(s, () => {
      writeFileSync(join(root, 'a.txt'), 'a1\n');
      writeFileSync(join(root, 'b.txt'), 'b1\n');
    });
    await s.endTurn();
    await s.settled();
    const gitDir = join(projectCheckpointDir(home, root), 'git');
    const blob = execFileSync('git', ['hash-object', '--stdin'], {
      input: 'alpha zero\n',
      encoding: 'utf8',
    }).trim();
    const object = join(gitDir, 'objects', blob.slice(0, 2), blob.slice(2));
    expect(existsSync(object)).toBe(true);
    rmSync(object, { force: true });
    const done = await s.revert({ turns: 1 });
    expect(done.restored).toEqual(['b.txt']);
    expect(done.skipped).toEqual([{ path: 'a.txt', reason: expect.stringMatching(/damaged checkpoint/) }]);
    expect(read(root, 'b.txt')).toBe('bravo zero\n');
  });
});
