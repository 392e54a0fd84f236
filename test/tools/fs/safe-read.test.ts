/** readFileSafely through a plain descriptor: every size reads whole, the cap holds, and what is not a file says so. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSafely } from '../../../src/tools/fs/safe-fs';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-safe-read-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => 97 + (i % 26)));

describe('readFileSafely', () => {
  it.each([0, 1, 2, 4095, 65_535, 65_536, 65_537, 300_001])('a %i-byte file reads whole', async (n) => {
    const path = join(root, `f${n}`);
    writeFileSync(path, bytes(n));
    const read = await readFileSafely({ path, root }, 1_000_000);
    expect(read.kind).toBe('file');
    if (read.kind === 'file') {
      expect(read.size).toBe(n);
      expect(read.bytes.equals(bytes(n))).toBe(true);
    }
  });

  it.each([
    { size: 100, max: 100, kind: 'file' },
    { size: 101, max: 100, kind: 'too-large' },
  ])('$size bytes with a cap of $max → $kind', async ({ size, max, kind }) => {
    const path = join(root, `cap${size}`);
    writeFileSync(path, bytes(size));
    expect((await readFileSafely({ path, root }, max)).kind).toBe(kind);
  });

  it('an absent file, a folder, a fifo and a link are not read', async () => {
    mkdirSync(join(root, 'dir'));
    expect(spawnSync('mkfifo', [join(root, 'fifo')]).status).toBe(0);
    writeFileSync(join(root, 'target'), 'x');
    symlinkSync(join(root, 'target'), join(root, 'link'));
    expect(await readFileSafely({ path: join(root, 'none'), root }, 10)).toEqual({ kind: 'absent' });
    expect(await readFileSafely({ path: join(root, 'dir'), root }, 10)).toEqual({
      kind: 'not-file',
      what: 'dir',
    });
    expect(await readFileSafely({ path: join(root, 'fifo'), root }, 10)).toEqual({
      kind: 'not-file',
      what: 'other',
    });
    await expect(readFileSafely({ path: join(root, 'link'), root }, 10)).rejects.toMatchObject({
      code: 'ELOOP',
    });
  });

  it('5,000 reads side by side all succeed', async () => {
    const path = join(root, 'many');
    writeFileSync(path, 'a\n');
    const reads = await Promise.all(Array.from({ length: 5_000 }, () => readFileSafely({ path, root }, 10)));
    expect(reads.every((r) => r.kind === 'file' && r.bytes.toString() === 'a\n')).toBe(true);
  });
});
