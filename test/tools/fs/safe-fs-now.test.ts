/**
 * safe-fs-now.ts: the synchronous write of an approved write answers exactly as safe-fs.ts's thread-pool
 * one — same results, same refusals, nothing left behind — on both sides of NOW_MAX_BYTES.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSafely } from '../../../src/tools/fs/safe-fs';
import { NOW_MAX_BYTES, writeFileSafelyNow } from '../../../src/tools/fs/safe-fs-now';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-safe-now-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => 97 + (i % 26)));
const temps = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.warden-tmp'));

describe('writeFileSafelyNow', () => {
  it.each([
    ['a small file', 10],
    ['a file over the synchronous budget', NOW_MAX_BYTES + 1],
  ])('creates and replaces %s, keeping the mode, leaving no temp file', async (_name, n) => {
    const dir = join(root, `w${n}`);
    mkdirSync(dir);
    const path = join(dir, 'f.txt');
    await writeFileSafelyNow({ path, root }, bytes(n));
    expect(readFileSync(path).equals(bytes(n))).toBe(true);
    chmodSync(path, 0o750);
    await writeFileSafelyNow({ path, root }, bytes(n + 1), 0o750);
    expect(readFileSync(path).equals(bytes(n + 1))).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o750);
    expect(temps(dir)).toEqual([]);
  });

  it('creates missing folders from the root down', async () => {
    const path = join(root, 'n1', 'n2', 'f.txt');
    await writeFileSafelyNow({ path, root }, Buffer.from('deep\n'));
    expect(readFileSync(path, 'utf8')).toBe('deep\n');
  });

  it('keeps the original and removes the temp file when the rename fails', async () => {
    const dir = join(root, 'keep');
    mkdirSync(dir);
    writeFileSync(join(dir, 'k.txt'), 'original\n');
    const failing = async () => {
      throw Object.assign(new Error('EXDEV: simulated'), { code: 'EXDEV' });
    };
    await expect(
      writeFileSafelyNow({ path: join(dir, 'k.txt'), root }, Buffer.from('new\n'), undefined, {
        rename: failing,
      }),
    ).rejects.toMatchObject({ code: 'EXDEV' });
    expect(readFileSync(join(dir, 'k.txt'), 'utf8')).toBe('original\n');
    expect(readdirSync(dir)).toEqual(['k.txt']);
  });

  it('refuses a folder that is a link (to outside), as writeFileSafely does, and writes nothing there', async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'warden-safe-now-out-')));
    try {
      symlinkSync(outside, join(root, 'swapped'));
      const target = { path: join(root, 'swapped', 'x.txt'), root };
      const pool = await writeFileSafely(target, Buffer.from('x')).catch(
        (e: NodeJS.ErrnoException) => e.code,
      );
      const now = await writeFileSafelyNow(target, Buffer.from('x')).catch(
        (e: NodeJS.ErrnoException) => e.code,
      );
      expect(now).toBe(pool);
      expect(now).toMatch(/^(ELOOP|ENOTDIR|ERACE)$/);
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('ten writes started together: one is on disk before the event loop turns, the rest take the thread pool', async () => {
    const dir = join(root, 'burst');
    mkdirSync(dir);
    const paths = Array.from({ length: 10 }, (_, i) => join(dir, `b${i}.txt`));
    const writes = Promise.all(paths.map((path) => writeFileSafelyNow({ path, root }, Buffer.from('b\n'))));
    // Each thread-pool call takes a turn of the event loop, so no pooled write has renamed by the next turn.
    const atNextTurn = await new Promise<number>((resolve) =>
      setImmediate(() => resolve(readdirSync(dir).filter((n) => n.endsWith('.txt')).length)),
    );
    expect(atNextTurn).toBe(1);
    await writes;
    expect(paths.map((p) => readFileSync(p, 'utf8'))).toEqual(paths.map(() => 'b\n'));
    expect(temps(dir)).toEqual([]);
  });
});
