/**
 * Opening the shadow repository ahead of the first checkpoint (issue 16: approve → file on disk):
 * `prepare` creates or opens it without recording anything of the project; the first checkpoint
 * then runs only the snapshot's own git commands, and none that prints nothing (simple-git waits
 * 50 ms after those). A git that logs its subcommand shows which ran.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  type CheckpointStore,
  createCheckpointStore,
  projectCheckpointDir,
} from '../../src/agent/checkpoints';
import { findGit } from '../../src/checkpoint/git-env';
import { removeFileSafely, writeFileSafely } from '../../src/tools/fs/safe-fs';
import { startSession } from '../helpers/session-harness';
import { tempDirs } from '../helpers/temp-dirs';

const temp = tempDirs();

/** A git that appends its subcommand to a log, then runs the real one (or fails, with `broken`). */
function loggingGit(broken = false): { git: string; ran: () => string[] } {
  const dir = temp('warden-git-log-');
  const log = join(dir, 'log');
  const git = join(dir, 'git');
  writeFileSync(log, '');
  writeFileSync(
    git,
    broken
      ? '#!/bin/sh\necho broken >&2\nexit 1\n'
      : `#!/bin/sh\necho "$1" >> ${log}\nexec ${findGit()} "$@"\n`,
  );
  chmodSync(git, 0o755);
  return { git, ran: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

function store(root: string, home: string, git: string): CheckpointStore {
  return createCheckpointStore({
    home,
    root,
    sessionId: 'session-open',
    files: {
      write: (path, bytes, mode) => writeFileSafely({ path, root }, bytes, mode),
      remove: (path) => removeFileSafely({ path, root }),
    },
    git,
  });
}

const gitDirOf = (home: string, root: string) => join(projectCheckpointDir(home, root), 'git');

describe('opening the shadow repository', () => {
  it('prepare creates it without a checkpoint; the first checkpoint then runs only status, staging, write-tree, commit-tree', async () => {
    const root = temp('warden-open-proj-');
    const home = temp('warden-open-home-');
    writeFileSync(join(root, 'a.txt'), 'a0\n');
    const { git, ran } = loggingGit();
    const s = store(root, home, git);
    s.prepare();
    await s.settled();
    const gitDir = gitDirOf(home, root);
    expect(ran()).toEqual(['init']);
    expect(readFileSync(join(gitDir, 'HEAD'), 'utf8')).toBe('ref: refs/heads/checkpoints\n');
    // Nothing of the project was recorded early.
    expect(existsSync(join(gitDir, 'refs', 'heads', 'checkpoints'))).toBe(false);

    s.beginTurn();
    await s.beforeChange('write_file');
    expect(ran()).toEqual(['init', 'ls-files', 'update-index', 'write-tree', 'commit-tree']);
    writeFileSync(join(root, 'a.txt'), 'a1\n');
    expect((await s.endTurn())?.changes.map((c) => [c.path, c.kind])).toEqual([['a.txt', 'modified']]);
    await s.revert({ turns: 1 });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a0\n');
  });

  it('an existing repository opens with rev-parse and cat-file, and its latest checkpoint is found', async () => {
    const root = temp('warden-open-proj-');
    const home = temp('warden-open-home-');
    writeFileSync(join(root, 'a.txt'), 'a0\n');
    const first = store(root, home, findGit() as string);
    first.beginTurn();
    await first.beforeChange('write_file');
    await first.endTurn();

    const { git, ran } = loggingGit();
    const again = store(root, home, git);
    again.prepare();
    await again.settled();
    expect(ran()).toEqual(['rev-parse', 'cat-file']);
    // Nothing changed since that checkpoint: status alone says so, and the checkpoint is reused.
    again.beginTurn();
    await again.beforeChange('write_file');
    expect(ran()).toEqual(['rev-parse', 'cat-file', 'ls-files']);
  });

  it('a HEAD left naming another branch (a run stopped between init and HEAD) is put back', async () => {
    const root = temp('warden-open-proj-');
    const home = temp('warden-open-home-');
    const s = store(root, home, findGit() as string);
    s.prepare();
    await s.settled();
    const head = join(gitDirOf(home, root), 'HEAD');
    writeFileSync(head, 'ref: refs/heads/master\n');
    const again = store(root, home, findGit() as string);
    again.prepare();
    await again.settled();
    expect(readFileSync(head, 'utf8')).toBe('ref: refs/heads/checkpoints\n');
  });

  it('prepare never throws; when git fails, the first checkpoint fails (closed) as before', async () => {
    const root = temp('warden-open-proj-');
    const home = temp('warden-open-home-');
    const s = store(root, home, loggingGit(true).git);
    expect(() => s.prepare()).not.toThrow();
    await s.settled();
    s.beginTurn();
    await expect(s.beforeChange('write_file')).rejects.toThrow();
  });

  it('a session opens it when the app asks (an idle moment), before any turn', async () => {
    const h = await startSession([]);
    try {
      h.session.warmUp();
      await vi.waitFor(() => expect(existsSync(join(gitDirOf(h.home, h.root), 'HEAD'))).toBe(true), {
        timeout: 10_000,
      });
      expect(existsSync(join(gitDirOf(h.home, h.root), 'refs', 'heads', 'checkpoints'))).toBe(false);
    } finally {
      await h.dispose();
    }
  });
});
