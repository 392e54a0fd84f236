/**
 * Protected names that did not exist before a run are watched, not stood in for: a
 * read-only stand-in is a phantom file every `ls` shows (an empty `package.json`, a `.git`). After
 * the run, one that appeared where the run could write — a `.npmrc`, a `.githooks/` the repository's
 * config names, an `AGENTS.md` — is moved aside (kept, renamed, so the person's own tools no longer
 * see it) and the result says so. What a person's approved card listed stays: the lifted paths of
 * this run and of every other run still going (two agents' commands overlap), and the folders on
 * the way to them; anything else that appeared inside such a folder is moved aside on its own.
 */
import { mkdirSync, readdirSync, renameSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { inside } from './sandbox-paths';
import { pathExists } from '../../os/path-exists';

/** A protected name that appeared during a run, and where it was moved (undefined when it could not be). */
export type Appeared = { path: string; movedTo?: string };

const liveLifts = new Map<number, readonly string[]>();
let nextRun = 0;

/** Registers a run's lifted paths while it runs; the returned function ends the registration. */
export function holdLifts(lifted: readonly string[]): () => void {
  const id = ++nextRun;
  liveLifts.set(id, lifted);
  return () => liveLifts.delete(id);
}

/**
 * Moves each watched path that now exists to `<path>.warden-quarantine-<time>`, outermost first (a
 * path inside one already moved went with it). Contract: never throws.
 */
export function quarantineAppeared(watched: readonly string[], lifted: readonly string[] = []): Appeared[] {
  const keep = [...lifted, ...[...liveLifts.values()].flat()];
  const found: Appeared[] = [];
  const stamp = Date.now();
  const sorted = [...watched].sort((a, b) => a.length - b.length);
  for (const path of sorted) {
    if (keep.some((l) => inside(l, path))) continue;
    if (found.some((f) => inside(f.path, path)) || !pathExists(path)) continue;
    const aside = `${path}.warden-quarantine-${stamp}`;
    if (keep.some((l) => inside(path, l))) moveAllBut(path, path, aside, keep, found);
    else found.push(move(path, aside));
  }
  return found;
}

/** Inside a watched folder that holds kept paths: everything else moves to the same place under `aside`. */
function moveAllBut(
  dir: string,
  root: string,
  aside: string,
  keep: readonly string[],
  found: Appeared[],
): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (keep.some((l) => inside(l, path))) continue;
    if (keep.some((l) => inside(path, l))) {
      moveAllBut(path, root, aside, keep, found);
      continue;
    }
    const target = join(aside, relative(root, path));
    try {
      mkdirSync(dirname(target), { recursive: true });
    } catch {
      // The move below says so.
    }
    found.push(move(path, target));
  }
}

function move(path: string, target: string): Appeared {
  try {
    renameSync(path, target);
    return { path, movedTo: target };
  } catch {
    return { path };
  }
}
