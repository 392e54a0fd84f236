/**
 * safe-fs housekeeping: stale temp files of interrupted writes are swept at start (only warden's own
 * names, only when stale), a kill -9 mid-write leaves nothing after the next start, and a project
 * root deleted mid-session stops the session.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CoreEvent } from '../../../src/protocol';
import { createSession, type Session } from '../../../src/session/session';
import { watchProjectRoot } from '../../../src/tools/fs/safe-fs-root';
import { isStaleTemp, sweepStaleTemps } from '../../../src/tools/fs/safe-fs-sweep';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const dirs: string[] = [];
const sessions: Session[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
};
/** A pid that is certainly not running: a child that already exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid as number;
const HEX = 'a1b2c3d4e5f6';

describe('isStaleTemp', () => {
  const now = Date.now();
  const dead = deadPid();
  it.each([
    ['a temp of a dead writer', `.a.txt.${dead}.${HEX}.warden-tmp`, now, true],
    ['a fresh temp of a live writer (this process)', `.a.txt.${process.pid}.${HEX}.warden-tmp`, now, false],
    [
      'a temp of a live writer, 11 minutes old',
      `.a.txt.${process.pid}.${HEX}.warden-tmp`,
      now - 11 * 60_000,
      true,
    ],
    ['an older-version temp, 2 minutes old', `.a.txt.${HEX}.warden-tmp`, now - 120_000, true],
    ['an older-version temp, fresh', `.a.txt.${HEX}.warden-tmp`, now, false],
    ['a revert temp of a dead writer', `a.txt.warden-revert-${dead}`, now, true],
    ['a name with digits of a dead writer', `.v.2.${dead}.${HEX}.warden-tmp`, now, true],
    ['not our pattern: suffix elsewhere', '.notes.warden-tmp.txt', now - 86_400_000, false],
    ['not our pattern: no hash', 'x.warden-tmp', now - 86_400_000, false],
    ['not our pattern: not hidden', `a.txt.${dead}.${HEX}.warden-tmp`, now, false],
    ['not our pattern: short hash', `.a.txt.${dead}.abc.warden-tmp`, now, false],
  ])('%s', (_name, name, mtime, stale) => {
    expect(isStaleTemp(name, mtime, now)).toBe(stale);
  });
});

describe('sweepStaleTemps', () => {
  it('removes stale temps in the tree, keeps everything else, skips node_modules and .git, follows no link', async () => {
    const root = tempDir('warden-sweep-');
    const outside = tempDir('warden-outside-');
    const dead = deadPid();
    const stale = `.a.txt.${dead}.${HEX}.warden-tmp`;
    const files = [
      'keep.txt',
      stale,
      `src/deep/${stale}`,
      `.live.${process.pid}.${HEX}.warden-tmp`,
      `node_modules/p/${stale}`,
      `.git/${stale}`,
      '.notes.warden-tmp.txt',
    ];
    for (const f of files) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      writeFileSync(join(root, f), 'x');
    }
    writeFileSync(join(outside, stale), 'outside');
    symlinkSync(outside, join(root, 'link'));
    symlinkSync(join(outside, stale), join(root, `.b.txt.${dead}.${HEX}.warden-tmp`));
    const result = await sweepStaleTemps(root);
    expect(result.removed.sort()).toEqual([stale, `src/deep/${stale}`].sort());
    expect(result.truncated).toBe(false);
    for (const f of files.filter((f) => !result.removed.includes(f)))
      expect(existsSync(join(root, f)), f).toBe(true);
    expect(readdirSync(outside)).toEqual([stale]);
  });

  it('stops after its entry budget and says so', async () => {
    const root = tempDir('warden-sweep-');
    for (let i = 0; i < 30; i++) writeFileSync(join(root, `f${i}`), '');
    expect(await sweepStaleTemps(root, { maxEntries: 10 })).toMatchObject({ truncated: true });
  });

  it('never throws, also for a root that does not exist', async () => {
    expect(await sweepStaleTemps(join(tmpdir(), 'warden-no-such-dir-3f9a'))).toEqual({
      removed: [],
      truncated: false,
    });
  });
});

/** A session on `root` with a model that is never asked. */
async function sessionOn(root: string): Promise<{ session: Session; events: CoreEvent[] }> {
  const home = tempDir('warden-home-');
  const session = await createSession({
    root,
    home,
    model: {
      name: 'unused',
      demo: false,
      complete: () => Promise.reject(new Error('not used in this test')),
    },
    mode: 'manual',
    approvalTimeoutSec: 60,
    sandbox: 'off',
    maxStepsPerTurn: 5,
    contextWindowTokens: 100_000,
  });
  sessions.push(session);
  const events: CoreEvent[] = [];
  session.client.subscribe((e) => events.push(e));
  return { session, events };
}

describe('a kill -9 mid-write', () => {
  it('leaves a temp file that the next session start removes', async () => {
    const root = tempDir('warden-kill-');
    writeFileSync(join(root, 'keep.txt'), 'keep');
    const script = join(tempDir('warden-killer-'), 'writer.mjs');
    // The child stops inside the write, after the temp file is complete and before the rename.
    writeFileSync(
      script,
      `import { writeFileSafely } from ${JSON.stringify(pathToFileURL(join(repo, 'src/tools/fs/safe-fs.ts')).href)};
setInterval(() => {}, 1000);
await writeFileSafely({ path: ${JSON.stringify(join(root, 'big.bin'))}, root: ${JSON.stringify(root)} }, Buffer.alloc(5 * 1024 * 1024, 97), undefined, {
  rename: () => { process.stdout.write('mid-write\\n'); return new Promise(() => {}); },
});`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((done) => child.once('exit', done));
    await new Promise<void>((done) =>
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('mid-write') && done()),
    );
    const leftovers = () => readdirSync(root).filter((f) => f.endsWith('.warden-tmp'));
    expect(leftovers()).toHaveLength(1);
    child.kill('SIGKILL');
    await exited;
    expect(leftovers()).toHaveLength(1);
    const { session } = await sessionOn(root);
    await vi.waitFor(() => expect(leftovers()).toEqual([]), { timeout: 5000 });
    expect(readdirSync(root)).toEqual(['keep.txt']);
    await vi.waitFor(() =>
      expect(
        session.client
          .snapshot()
          .transcript.some((e) => e.kind === 'notice' && e.text.includes('interrupted write')),
      ).toBe(true),
    );
  }, 30_000);
});

describe('a project root deleted mid-session', () => {
  it('stops the session with a clear message; later prompts are refused', async () => {
    const root = tempDir('warden-gone-');
    const { session, events } = await sessionOn(root);
    rmSync(root, { recursive: true });
    await vi.waitFor(
      () =>
        expect(events).toContainEqual({
          type: 'error',
          message: expect.stringContaining('was deleted or replaced'),
        }),
      { timeout: 5000 },
    );
    expect(await session.run('write something')).toMatchObject({
      status: 'failed',
      text: expect.stringContaining('session has stopped'),
    });
    session.client.send({ type: 'submit', text: 'again' });
    expect(events.filter((e) => e.type === 'error')).toHaveLength(2);
    expect(existsSync(root)).toBe(false);
  }, 15_000);

  it('notices a root replaced by another folder at the same path', async () => {
    const root = tempDir('warden-swap-root-');
    let stop = () => {};
    const gone = new Promise<string>((done) => {
      stop = watchProjectRoot(root, done, 20);
    });
    rmSync(root, { recursive: true });
    mkdirSync(root);
    expect(await gone).toContain(root);
    stop();
  });

  it('says so at once for a root that is already gone', async () => {
    const message = await new Promise<string>((done) =>
      watchProjectRoot(join(tmpdir(), 'warden-no-such-root-1c2d'), done),
    );
    expect(message).toContain('was deleted or replaced');
  });
});
