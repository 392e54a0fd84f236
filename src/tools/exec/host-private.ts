/**
 * The entries of a shown system folder that the system itself keeps private: a file others may not
 * read, a folder others may not list or enter (`/etc/ssh/ssh_host_ed25519_key` 0600,
 * `/etc/ssl/private` 0710, a runner's `config.toml` 0600, a database's `debian.cnf`). A command must
 * not read them even where the person could — as root, the owner's bits would let it. Masking by
 * the mode bits covers what no list of names foresees; ETC_SECRETS still names world-readable ones.
 * Measured on this machine's /etc (1,179 entries): ~8 ms warm, once per process, in the sandbox
 * layout the warm-up builds before the first command.
 */
import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Bounds for the walk: a folder deeper or bigger than this is unusual for /etc and is cut short. */
const MAX_DEPTH = 8;
const MAX_ENTRIES = 20_000;

const OTHERS_READ = 0o004;
const OTHERS_ENTER = 0o001;

/**
 * The private entries under `folder` (absolute paths, outer first; a private folder's contents are
 * not listed, the folder stands for them). Links are not followed: what a link names is masked, or
 * not shown, where it lies. Contract: never throws; an unreadable folder is itself private.
 */
export function privateEntries(folder: string): string[] {
  const found: string[] = [];
  let seen = 0;
  const walk = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      found.push(dir);
      return;
    }
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) return;
      if (e.isSymbolicLink()) continue;
      const path = join(dir, e.name);
      let mode: number;
      try {
        mode = lstatSync(path).mode;
      } catch {
        continue;
      }
      if (e.isDirectory()) {
        if ((mode & OTHERS_READ) === 0 || (mode & OTHERS_ENTER) === 0) found.push(path);
        else if (depth < MAX_DEPTH) walk(path, depth + 1);
      } else if (!e.isFile() || (mode & OTHERS_READ) === 0) found.push(path);
    }
  };
  walk(folder, 0);
  return found;
}
