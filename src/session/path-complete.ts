/**
 * `@path` completion for the prompt: the project entries that start with a prefix, listed one folder
 * at a time (one readdir, so a Tab stays fast on any project size). Listed through the path fence —
 * a prefix that leaves the project (`../`, `/etc`, a symlink out) completes to nothing — and without
 * what .gitignore, `.git` or `node_modules` hide, as list_dir shows it.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PathFence } from '../policy/guards/path-guard';
import { ALWAYS_SKIPPED_DIRS, GitIgnore, IGNORE_FILE_MAX_BYTES } from '../tools/fs/gitignore';
import { readRegularFile } from '../policy/safe-read';

/** Most matches one completion returns. */
export const COMPLETE_MAX = 50;

/**
 * A regular file only, its last name not a link, its descriptor inside the project, non-blocking
 * (policy/safe-read.ts): a cloned `.gitignore` linked to /dev/tty or /dev/zero, or a FIFO a command
 * made, would otherwise block this synchronous read on the UI thread (or read without end), and one
 * linked out of the project would be read. git does not follow a symlinked .gitignore either.
 */
const readText = (root: string, file: string): string | undefined => {
  const read = readRegularFile(file, IGNORE_FILE_MAX_BYTES, { noFollow: true, inside: root });
  return read.kind === 'ok' && !read.truncated ? read.text : undefined;
};

/** The root's and each folder's .gitignore down to `relative`, shallowest first (as git reads them). */
function ignoresDownTo(root: string, relative: string): GitIgnore {
  const ignore = new GitIgnore();
  const parts = relative === '' ? [] : relative.split('/');
  for (let i = 0; i <= parts.length; i++) {
    const base = parts.slice(0, i).join('/');
    const text = readText(root, join(root, base, '.gitignore'));
    if (text !== undefined) ignore.add(base, text);
  }
  return ignore;
}

/**
 * Project paths (relative, `/`-separated, folders ending in `/`) that start with `prefix`: folders
 * first, then files, each alphabetical, at most COMPLETE_MAX. Hidden entries only when the typed
 * name starts with a dot.
 * Contract: never throws; anything the fence refuses or the disk cannot list gives [].
 */
export function completePath(fence: Pick<PathFence, 'check' | 'root'>, prefix: string): string[] {
  const cut = prefix.lastIndexOf('/');
  const dir = cut === -1 ? '' : prefix.slice(0, cut + 1);
  const partial = prefix.slice(cut + 1);
  const verdict = fence.check(dir === '' ? '.' : dir);
  if (!verdict.ok) return [];
  let names: { name: string; dir: boolean }[];
  try {
    names = readdirSync(verdict.path, { withFileTypes: true })
      .map((e) => ({
        name: e.name,
        dir: e.isDirectory(),
        link: e.isSymbolicLink(),
      }))
      .flatMap((e) => {
        if (!e.link) return [{ name: e.name, dir: e.dir }];
        // A link is offered only if it resolves inside the project; its kind is its target's.
        const target = fence.check(`${dir}${e.name}`);
        if (!target.ok) return [];
        try {
          return [{ name: e.name, dir: statSync(target.path).isDirectory() }];
        } catch {
          return [];
        }
      });
  } catch {
    return [];
  }
  const ignore = ignoresDownTo(fence.root, verdict.relative);
  const base = verdict.relative === '' ? '' : `${verdict.relative}/`;
  const hits = names.filter(
    ({ name, dir: isDir }) =>
      name.startsWith(partial) &&
      (partial.startsWith('.') || !name.startsWith('.')) &&
      !(isDir && ALWAYS_SKIPPED_DIRS.includes(name)) &&
      !ignore.matches(`${base}${name}`, isDir),
  );
  hits.sort((a, b) => Number(b.dir) - Number(a.dir) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return hits.slice(0, COMPLETE_MAX).map(({ name, dir: isDir }) => `${dir}${name}${isDir ? '/' : ''}`);
}
