/**
 * Shadow-git checkpoints through the real store (temp WARDEN_HOME and project): what a "command" (here:
 * plain fs changes between beforeChange and endTurn, as a command makes them) created, modified and
 * deleted comes back; after a restart too; the project's .gitignore counts; large files are listed, not
 * copied; the project's own .git is untouched; a hostile project cannot make this git run a program;
 * a link comes back as a link; without git the copies fallback says so.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
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
  const root = temp('warden-cp-proj-');
  const home = temp('warden-cp-home-');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return { root, home };
}

function store(
  root: string,
  home: string,
  extra: { git?: string | null; maxFileBytes?: number; sessionId?: string } = {},
): CheckpointStore {
  return createCheckpointStore({
    home,
    root,
    sessionId: extra.sessionId ?? 'session-aaaa',
    files: {
      write: (path, bytes, mode) => writeFileSafely({ path, root }, bytes, mode),
      remove: (path) => removeFileSafely({ path, root }),
    },
    ...(extra.git !== undefined ? { git: extra.git } : {}),
    ...(extra.maxFileBytes ? { maxFileBytes: extra.maxFileBytes } : {}),
  });
}

/** One turn in which `change` does what a command would, after the checkpoint before the call. */
async function turn(s: CheckpointStore, change: () => void) {
  s.beginTurn();
  await s.beforeChange('execute_command');
  change();
  return s.endTurn();
}

/** A hash of every file under a folder (names, bytes), to prove it did not change. */
function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const info = lstatSync(p);
      h.update(`${p}\0${info.mode}\0`);
      if (info.isDirectory()) walk(p);
      else if (info.isFile()) h.update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex');
}

describe('shadow-git checkpoints', () => {
  it('a command that creates, modifies and deletes files: the turn lists all three, /undo restores all three', async () => {
    const { root, home } = setup({ 'keep.txt': 'same\n', 'mod.txt': 'old\n', 'gone.txt': 'bye\n' });
    const s = store(root, home);
    expect(s.mode.kind).toBe('git');
    const ended = await turn(s, () => {
      writeFileSync(join(root, 'mod.txt'), 'new\n');
      unlinkSync(join(root, 'gone.txt'));
      mkdirSync(join(root, 'out'));
      writeFileSync(join(root, 'out', 'made.txt'), 'made\n');
    });
    expect(ended?.changes.map((c) => [c.path, c.kind])).toEqual([
      ['gone.txt', 'deleted'],
      ['mod.txt', 'modified'],
      ['out/made.txt', 'created'],
    ]);
    expect(ended?.changes.find((c) => c.path === 'mod.txt')).toMatchObject({
      before: 'old\n',
      after: 'new\n',
    });
    const plan = await s.plan({ turns: 1 });
    expect(plan.changes).toHaveLength(3);
    const done = await s.revert({ turns: 1 });
    expect(done).toMatchObject({ turns: 1, skipped: [] });
    expect(done.restored.sort()).toEqual(['gone.txt', 'mod.txt']);
    expect(done.removed).toEqual(['out/made.txt']);
    expect(readFileSync(join(root, 'mod.txt'), 'utf8')).toBe('old\n');
    expect(readFileSync(join(root, 'gone.txt'), 'utf8')).toBe('bye\n');
    expect(existsSync(join(root, 'out', 'made.txt'))).toBe(false);
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('same\n');
    // A reverted turn is not offered again.
    expect((await s.plan({ turns: 1 })).turns).toBe(0);
  });

  it('after a restart (a new store over the same WARDEN_HOME) the turn can still be undone', async () => {
    const { root, home } = setup({ 'a.txt': 'one\n' });
    await turn(store(root, home, { sessionId: 'first-session' }), () =>
      writeFileSync(join(root, 'a.txt'), 'two\n'),
    );
    const again = store(root, home, { sessionId: 'second-session' });
    expect((await again.plan({ turns: 1 })).changes.map((c) => c.path)).toEqual(['a.txt']);
    await again.revert({ turns: 1 });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it("a clone's .gitignore of `*` switches off nothing: every change is listed and undone; node_modules/ is left out, and named when a tool wrote there", async () => {
    const { root, home } = setup({ '.gitignore': '*\n', 'src.txt': 'x\n', 'node_modules/dep/i.js': 'dep\n' });
    const s = store(root, home);
    s.beginTurn();
    const after = await s.beforeChange('execute_command');
    mkdirSync(join(root, 'build'));
    writeFileSync(join(root, 'build', 'out.js'), 'built\n');
    writeFileSync(join(root, 'debug.log'), 'log\n');
    writeFileSync(join(root, 'src.txt'), 'y\n');
    // What write_file tells the store before it writes a file under node_modules/.
    await s.recordPreImage(join(root, 'node_modules', 'dep', 'i.js'), {
      kind: 'file',
      bytes: Buffer.from('dep\n'),
      mode: 0o644,
    });
    writeFileSync(join(root, 'node_modules', 'dep', 'i.js'), 'patched\n');
    await after?.();
    const ended = await s.endTurn();
    expect(ended?.changes.map((c) => [c.path, c.kind, c.notRestorable ?? 'restorable'])).toEqual([
      ['build/out.js', 'created', 'restorable'],
      ['debug.log', 'created', 'restorable'],
      ['node_modules/dep/i.js', 'modified', expect.stringMatching(/^left out of checkpoints/)],
      ['src.txt', 'modified', 'restorable'],
    ]);
    const done = await s.revert({ turns: 1 });
    expect(done.restored).toEqual(['src.txt']);
    expect(done.removed.sort()).toEqual(['build/out.js', 'debug.log']);
    expect(done.skipped).toEqual([
      { path: 'node_modules/dep/i.js', reason: expect.stringMatching(/left out/) },
    ]);
    expect(readFileSync(join(root, 'src.txt'), 'utf8')).toBe('x\n');
    expect(existsSync(join(root, 'debug.log'))).toBe(false);
  });

  it('a file over the cap is listed, not copied, and the plan says it cannot be restored', async () => {
    const { root, home } = setup({ 'big.bin': 'x'.repeat(2000), 'small.txt': 'a\n' });
    const s = store(root, home, { maxFileBytes: 1000 });
    const ended = await turn(s, () => {
      writeFileSync(join(root, 'big.bin'), 'y'.repeat(3000));
      writeFileSync(join(root, 'small.txt'), 'b\n');
    });
    expect(ended?.changes).toEqual([
      {
        path: 'big.bin',
        kind: 'modified',
        tooLarge: true,
        notRestorable: 'over the size cap: it was listed, not copied',
      },
      expect.objectContaining({ path: 'small.txt', kind: 'modified' }),
    ]);
    const objects = execFileSync('find', [
      join(home, 'checkpoints'),
      '-type',
      'f',
      '-size',
      '+1k',
      '-path',
      '*objects*',
    ]);
    expect(objects.toString()).toBe('');
    const done = await s.revert({ turns: 1 });
    expect(done.skipped).toEqual([{ path: 'big.bin', reason: expect.stringMatching(/size cap/) }]);
    expect(readFileSync(join(root, 'big.bin'), 'utf8')).toBe('y'.repeat(3000));
    expect(readFileSync(join(root, 'small.txt'), 'utf8')).toBe('a\n');
  });

  it("never touches the project's own .git (its contents hash the same before and after)", async () => {
    const { root, home } = setup({ 'a.txt': 'a\n' });
    execFileSync('git', ['init', '-q'], { cwd: root, env: { PATH: process.env.PATH, HOME: home } });
    writeFileSync(join(root, '.git', 'marker'), 'mine\n');
    const before = treeHash(join(root, '.git'));
    const s = store(root, home);
    await turn(s, () => writeFileSync(join(root, 'a.txt'), 'b\n'));
    await s.revert({ turns: 1 });
    expect(treeHash(join(root, '.git'))).toBe(before);
  });

  it('a hostile project (filter, fsmonitor, hooks in its .git/config and .gitattributes) runs no program through the shadow git', async () => {
    const { root, home } = setup({ 'a.txt': 'a\r\n' });
    const marker = join(home, 'pwned');
    const evil = join(root, 'evil.sh');
    writeFileSync(evil, `#!/bin/sh\ntouch ${marker}\ncat\n`);
    chmodSync(evil, 0o755);
    execFileSync('git', ['init', '-q'], { cwd: root, env: { PATH: process.env.PATH, HOME: home } });
    writeFileSync(
      join(root, '.git', 'config'),
      `[core]\n\tfsmonitor = ${evil}\n\thooksPath = ${root}\n[filter "x"]\n\tclean = ${evil}\n\tsmudge = ${evil}\n\tprocess = ${evil}\n[diff "x"]\n\ttextconv = ${evil}\n`,
    );
    writeFileSync(join(root, '.gitattributes'), '* filter=x diff=x text eol=lf\n');
    for (const hook of ['pre-commit', 'post-commit', 'post-index-change', 'reference-transaction'])
      writeFileSync(join(root, hook), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    // The ambient environment is the attacker's too.
    const saved = { ...process.env };
    process.env.GIT_CONFIG_GLOBAL = join(root, '.git', 'config');
    process.env.GIT_EXTERNAL_DIFF = evil;
    try {
      const s = store(root, home);
      const ended = await turn(s, () => writeFileSync(join(root, 'a.txt'), 'b\r\n'));
      expect(ended?.changes.map((c) => c.path)).toEqual(['a.txt']);
      await s.revert({ turns: 1 });
    } finally {
      process.env = saved;
    }
    expect(existsSync(marker)).toBe(false);
    // Bytes in, bytes out: no CRLF conversion from the project's attributes.
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a\r\n');
  });

  it("control: a plain git with the attacker's environment does run the filter (the marker test can fail)", () => {
    const { root, home } = setup({ 'a.txt': 'a\n' });
    const marker = join(home, 'pwned');
    const evil = join(root, 'evil.sh');
    writeFileSync(evil, `#!/bin/sh\ntouch ${marker}\ncat\n`, { mode: 0o755 });
    const evilConfig = join(root, 'evil.cfg');
    writeFileSync(evilConfig, `[filter "x"]\n\tclean = ${evil}\n`);
    writeFileSync(join(root, '.gitattributes'), '* filter=x\n');
    const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_GLOBAL: evilConfig };
    const gitDir = join(home, 'plain');
    execFileSync('git', ['--git-dir', gitDir, 'init', '-q'], { env });
    execFileSync('git', ['--git-dir', gitDir, '--work-tree', root, 'add', '-A'], { env });
    expect(existsSync(marker)).toBe(true);
  });

  it('a link is restored as a link, never followed out of the project', async () => {
    const { root, home } = setup({ 'a.txt': 'a\n' });
    const outside = temp('warden-cp-outside-');
    writeFileSync(join(outside, 'secret'), 'outside\n');
    symlinkSync(join(outside, 'secret'), join(root, 'link'));
    const s = store(root, home);
    await turn(s, () => {
      unlinkSync(join(root, 'link'));
      writeFileSync(join(root, 'link'), 'now a file\n');
    });
    await s.revert({ turns: 1 });
    expect(lstatSync(join(root, 'link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, 'link'))).toBe(join(outside, 'secret'));
    expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe('outside\n');
  });

  it('a restore through a folder swapped for a link to outside is refused, and nothing outside changes', async () => {
    const { root, home } = setup({ 'work/f.txt': 'old\n' });
    const outside = temp('warden-cp-outside-');
    const s = store(root, home);
    await turn(s, () => writeFileSync(join(root, 'work', 'f.txt'), 'new\n'));
    rmSync(join(root, 'work'), { recursive: true });
    symlinkSync(outside, join(root, 'work'));
    const done = await s.revert({ turns: 1 });
    expect(done.skipped.map((x) => x.path)).toEqual(['work/f.txt']);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('reverting chosen files of one turn leaves its other files as they are', async () => {
    const { root, home } = setup({ 'a.txt': 'a1\n', 'b.txt': 'b1\n' });
    const s = store(root, home);
    const ended = await turn(s, () => {
      writeFileSync(join(root, 'a.txt'), 'a2\n');
      writeFileSync(join(root, 'b.txt'), 'b2\n');
    });
    const turnId = ended?.turnId ?? '';
    expect((await s.turnChanges(turnId)).map((c) => c.path)).toEqual(['a.txt', 'b.txt']);
    await s.revert({ turnId, paths: ['b.txt', '../etc/passwd'] });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a2\n');
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b1\n');
  });

  it("each call gets a checkpoint just before it; the card's warm-up adds no commit, and a call left open ends with the turn", async () => {
    const { root, home } = setup({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const s = store(root, home);
    s.beginTurn();
    // The gate warms up when the card shows and takes the call's own checkpoint after the decision.
    const started = s.beforeChange('write_file', true);
    await s.beforeChange('write_file');
    await started;
    writeFileSync(join(root, 'a.txt'), 'a1\n');
    await s.beforeChange('execute_command');
    writeFileSync(join(root, 'b.txt'), 'b1\n');
    const ended = await s.endTurn();
    expect(ended?.changes.map((c) => [c.path, c.kind])).toEqual([
      ['a.txt', 'modified'],
      ['b.txt', 'modified'],
    ]);
    const gitDir = s.mode.kind === 'git' ? join(s.mode.dir, 'git') : '';
    const commits = execFileSync('git', ['--git-dir', gitDir, 'rev-list', '--all', '--count'], {
      encoding: 'utf8',
    });
    // Before the first call (the warm-up's commit, reused), before the second, and the turn's end.
    expect(Number(commits)).toBe(3);
    await s.revert({ turns: 1 });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a0\n');
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b0\n');
  });

  it('a turn that changed nothing leaves nothing to undo', async () => {
    const { root, home } = setup({ 'a.txt': 'a\n' });
    const s = store(root, home);
    expect(await turn(s, () => undefined)).toEqual({ turnId: expect.any(String), changes: [] });
    expect((await s.plan({ turns: 1 })).turns).toBe(0);
  });

  it('without git: the copies fallback, and it says why', () => {
    const { root, home } = setup();
    const s = store(root, home, { git: null });
    expect(s.mode).toEqual({ kind: 'copies', reason: 'git was not found on PATH' });
  });
});

describe('a shadow repository left by a warden killed mid-checkpoint', () => {
  const lockIn = (home: string, root: string) => join(projectCheckpointDir(home, root), 'git', 'index.lock');
  it.each([
    ['an old lock is taken away and checkpoints go on', 10 * 60, true],
    ['a fresh lock (another warden may be writing) is left, and the checkpoint fails closed', 0, false],
  ])('%s', async (_l, ageSeconds, works) => {
    const { root, home } = setup({ 'a.txt': 'one\n' });
    const first = store(root, home);
    await turn(first, () => writeFileSync(join(root, 'a.txt'), 'two\n'));
    await first.settled();
    // What kill -9 during `git add` leaves: git's index lock.
    writeFileSync(lockIn(home, root), '');
    const then = Date.now() / 1000 - ageSeconds;
    utimesSync(lockIn(home, root), then, then);
    // A change since, so the next checkpoint must stage (take the index lock).
    writeFileSync(join(root, 'a.txt'), 'three\n');
    const next = store(root, home);
    next.beginTurn();
    const checkpoint = next.beforeChange('execute_command');
    if (works) {
      await checkpoint;
      expect(existsSync(lockIn(home, root))).toBe(false);
    } else {
      await expect(checkpoint).rejects.toThrow(/index\.lock/);
      expect(existsSync(lockIn(home, root))).toBe(true);
    }
  });
});
