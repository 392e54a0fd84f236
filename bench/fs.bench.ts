// Cost of race-free file access (issue 9 §2): read_file and write_file's file operations through
// verified descriptors (src/tools/fs/safe-fs.ts) next to the path-based versions they replaced
// (fence check, then lstat + open by path; temp file by path + rename), and the synchronous write an
// approved write makes (safe-fs-now.ts). Median µs per operation.
import { randomBytes } from 'node:crypto';
import { constants, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, lstat, mkdir, open, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readFileSafely, writeFileSafely } from '../src/tools/fs/safe-fs';
import { writeFileSafelyNow } from '../src/tools/fs/safe-fs-now';
import { median, printRow, timeRuns } from './stats';

const RUNS = 2000;
const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-fs-bench-')));
mkdirSync(join(root, 'src', 'deep'), { recursive: true });
const target = join(root, 'src', 'deep', 'file.ts');
const content = Buffer.from('export const x = 1;\n'.repeat(200)); // 4 KB, a typical source file
writeFileSync(target, content);

async function pathRead(path: string): Promise<Buffer> {
  await lstat(path);
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

async function pathWrite(path: string, bytes: Buffer, mode: number, syncFolder = false): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.file.ts.${randomBytes(6).toString('hex')}.warden-tmp`);
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await chmod(temp, mode);
  await rename(temp, path);
  if (!syncFolder) return;
  const folder = await open(dirname(path), constants.O_RDONLY | constants.O_DIRECTORY);
  await folder.sync();
  await folder.close();
}

const rows: [string, () => Promise<unknown>][] = [
  ['read 4 KB, by path (before)', () => pathRead(target)],
  ['read 4 KB, verified descriptor (after)', () => readFileSafely({ path: target, root }, 10 * 1024 * 1024)],
  ['write 4 KB + fsync, by path (before)', () => pathWrite(target, content, 0o644)],
  ['same + folder fsync, by path (same durability)', () => pathWrite(target, content, 0o644, true)],
  [
    'write 4 KB + fsync, verified folder (after)',
    () => writeFileSafely({ path: target, root }, content, 0o644),
  ],
  // An approved write's own path (safe-fs-now.ts): the same checks, synchronous calls to the rename.
  [
    'write 4 KB + fsync, synchronous to the rename',
    () => writeFileSafelyNow({ path: target, root }, content, 0o644),
  ],
  [
    'create in 3 new folders, verified walk (after)',
    () =>
      writeFileSafely({ path: join(root, 'n', randomBytes(4).toString('hex'), 'x', 'f.ts'), root }, content),
  ],
];

try {
  for (const [label, fn] of rows) {
    await timeRuns(50, fn); // warm-up
    const times = await timeRuns(RUNS, fn);
    printRow(label, `${(median(times) * 1000).toFixed(0)} µs median over ${RUNS}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
