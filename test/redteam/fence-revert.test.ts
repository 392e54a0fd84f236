/**
 * Red team, path fence: revert_turn (and /undo) after the turn's files were replaced by links.
 * A hostile command (or a later turn) swaps a file the turn changed or created for a link to an
 * outside file; the revert must replace the link, never write through it or remove its target, and
 * the review card must not show the outside file's content. Both stores: the shadow git repository
 * and the copies fallback (no git).
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CheckpointStore, createCheckpointStore } from '../../src/agent/checkpoints';
import { removeFileSafely, writeFileSafely } from '../../src/tools/fs/safe-fs';
import { tempDirs } from '../helpers/temp-dirs';

const temp = tempDirs();
const SECRET = 'OUTSIDE-SECRET-9e21';

function arena(kind: 'git' | 'copies') {
  const root = temp('warden-rt-proj-');
  const home = temp('warden-rt-home-');
  const outside = temp('warden-rt-outside-');
  writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(join(root, 'kept.txt'), 'before\n');
  const store = createCheckpointStore({
    home,
    root,
    sessionId: 'session-redteam',
    files: {
      write: (path, bytes, mode) => writeFileSafely({ path, root }, bytes, mode),
      remove: (path) => removeFileSafely({ path, root }),
    },
    ...(kind === 'copies' ? { git: null } : {}),
  });
  return { root, outside, store };
}

/** One turn that changes kept.txt and creates made.txt, the way each store learns of it. */
async function changeAndCreate(store: CheckpointStore, root: string): Promise<string> {
  store.beginTurn();
  await store.beforeChange('write_file');
  await store.recordPreImage(join(root, 'kept.txt'), {
    kind: 'file',
    bytes: Buffer.from('before\n'),
    mode: 0o644,
  });
  writeFileSync(join(root, 'kept.txt'), 'after\n');
  await store.recordPreImage(join(root, 'made.txt'), { kind: 'absent' });
  writeFileSync(join(root, 'made.txt'), 'made\n');
  const ended = await store.endTurn();
  return ended?.turnId ?? '';
}

/** Both files of the turn become links to the outside secret. */
function replaceWithLinks(root: string, outside: string): void {
  for (const name of ['kept.txt', 'made.txt']) {
    rmSync(join(root, name));
    symlinkSync(join(outside, 'secret.txt'), join(root, name));
  }
}

describe.each(['git', 'copies'] as const)('revert after the files became links out (%s store)', (kind) => {
  it('the review card and the plan show no outside content', async () => {
    const { root, outside, store } = arena(kind);
    const turnId = await changeAndCreate(store, root);
    replaceWithLinks(root, outside);
    const changes = await store.turnChanges(turnId);
    const plan = await store.plan({ turns: 1 });
    expect(JSON.stringify([changes, plan])).not.toContain(SECRET);
  });

  it('the revert replaces the links (the changed file back as a file, the created one gone), outside untouched', async () => {
    const { root, outside, store } = arena(kind);
    const turnId = await changeAndCreate(store, root);
    replaceWithLinks(root, outside);
    // Links put there after the turn are someone else's change since (issue 29 §1): without a
    // person's approval they are kept, and said so (chosen files: the turn stays revertable).
    if (kind === 'git') {
      const kept = await store.revert({ turnId, paths: ['kept.txt', 'made.txt'] });
      expect(kept.skipped.map((s) => s.reason)).toEqual([
        expect.stringMatching(/changed since by someone else/),
        expect.stringMatching(/changed since by someone else/),
      ]);
      expect(lstatSync(join(root, 'kept.txt')).isSymbolicLink()).toBe(true);
    }
    // Approved by a person over them: replaced, never written through.
    const done = await store.revert({ turns: 1 }, { overwriteChanged: true });
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
    expect(done.skipped).toEqual([]);
    expect(lstatSync(join(root, 'kept.txt')).isFile()).toBe(true);
    expect(readFileSync(join(root, 'kept.txt'), 'utf8')).toBe('before\n');
    expect(existsSync(join(root, 'made.txt'))).toBe(false);
    expect(lstatSync.bind(null, join(root, 'made.txt'))).toThrow();
  });

  it('a revert of one turn by id with hostile paths touches only that turn’s files', async () => {
    const { root, outside, store } = arena(kind);
    const turnId = await changeAndCreate(store, root);
    mkdirSync(join(root, 'sub'));
    const done = await store.revert({
      turnId,
      paths: ['../secret.txt', join(outside, 'secret.txt'), 'sub/../kept.txt', 'kept.txt'],
    });
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
    // Only the exact project-relative name of a file the turn changed counts.
    expect(done.restored).toEqual(['kept.txt']);
    expect(readFileSync(join(root, 'made.txt'), 'utf8')).toBe('made\n');
  });
});
