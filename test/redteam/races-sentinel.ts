/**
 * The outside world the race tests guard: a sentinel folder outside the project whose every entry's
 * kind, content and mtime are recorded before the race and compared after it. A folder's mtime moves
 * when a name is created or removed in it, so "nothing created or removed outside" is checked too,
 * not only "nothing written". (ctime is left out: the racer's hard links to an outside file move it.)
 */
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
} from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SECRET = 'OUTSIDE-SECRET-race-5b07';
export const HARD_TEXT = 'OUTSIDE-HARD-race-91c2';

export type Sentinel = {
  dir: string;
  /** A file holding SECRET: what a `link` points at. */
  secretFile: string;
  /** A file holding HARD_TEXT: what a hard link is a second name of. */
  hardSource: string;
  /** Every entry (and the folder itself, as '.') with what it is now. */
  snapshot(): Record<string, string>;
};

/**
 * Makes the sentinel folder: secret.txt, hard.txt, and sub-folders whose names mirror the project's
 * (`names`), each holding the same file names as the project, with SECRET in them — so a write or a
 * read that a swap sends outside finds a file to hit.
 */
export function makeSentinel(names: Record<string, string> = {}): Sentinel {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-race-outside-')));
  writeFileSync(join(dir, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(join(dir, 'hard.txt'), `${HARD_TEXT}\n`);
  for (const [rel, content] of Object.entries(names)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return {
    dir,
    secretFile: join(dir, 'secret.txt'),
    hardSource: join(dir, 'hard.txt'),
    snapshot: () => snapshotOf(dir),
  };
}

function snapshotOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    const abs = rel === '.' ? dir : join(dir, rel);
    const info = lstatSync(abs);
    if (info.isDirectory()) {
      out[rel] = `dir mtime=${info.mtimeMs}`;
      for (const name of readdirSync(abs).sort()) walk(rel === '.' ? name : `${rel}/${name}`);
    } else if (info.isSymbolicLink()) out[rel] = `link ${readlinkSync(abs)}`;
    else if (info.isFile()) {
      const sha = createHash('sha256').update(readFileSync(abs)).digest('hex').slice(0, 16);
      out[rel] = `file ${info.size} ${sha} mtime=${info.mtimeMs} mode=${(info.mode & 0o7777).toString(8)}`;
    } else out[rel] = `other mode=${info.mode.toString(8)}`;
  };
  walk('.');
  return out;
}

/** Every entry under `dir` (relative, `/`-separated), links not followed. */
export function treeOf(dir: string, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(rel ? join(dir, rel) : dir).sort()) {
      const child = rel ? `${rel}/${name}` : name;
      if (skip.includes(child)) continue;
      out.push(child);
      if (lstatSync(join(dir, child)).isDirectory()) walk(child);
    }
  };
  walk('');
  return out;
}
