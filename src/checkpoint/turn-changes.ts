/**
 * What a turn's own calls changed, from the checkpoints just before and just after each call
 * (turn-index.ts, `TurnStep`): a path's state before the first call that changed it, and after the
 * last one. What changed between calls, or after the turn's last call, was someone else's (another
 * warden on the project, the person's editor): it is shown as such and never reverted silently.
 */
import type { LargeFile, TurnChange } from './types';
import type { RawChange, ShadowRepo, TreeEntry } from './shadow-repo';

/** A path's state at a checkpoint: an entry of its tree, `large` (over the size cap, listed only), or absent. */
export type Side = TreeEntry | 'large' | undefined;

/** One path a turn's calls changed: its state before their first change and after their last. */
export type OwnChange = { path: string; from: Side; to: Side };

/** Text shown per side of a change on the review card; longer content is cut (the revert uses the blob). */
const MAX_SHOWN_BYTES = 256 * 1024;

/** True when two states are the same content (a large file is never known to be the same). */
export function sameSide(a: Side, b: Side): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a === 'large' || b === 'large') return false;
  return (
    a.kind === b.kind && a.sha === b.sha && (a.kind !== 'file' || b.kind !== 'file' || a.mode === b.mode)
  );
}

/** The paths that changed between two checkpoints, each with its state on both sides (large files from the lists). */
export async function stepChanges(repo: ShadowRepo, pre: string, post: string): Promise<OwnChange[]> {
  if (pre === post) return [];
  const [raw, largeBefore, largeAfter] = await Promise.all([
    repo.diff(pre, post),
    repo.largeOf(pre),
    repo.largeOf(post),
  ]);
  return withLarge(raw, largeBefore, largeAfter);
}

/** Files over the cap are in neither tree: their states come from the lists each checkpoint keeps. */
function withLarge(
  raw: readonly RawChange[],
  before: readonly LargeFile[],
  after: readonly LargeFile[],
): OwnChange[] {
  const byPath = new Map<string, OwnChange>(
    raw.map((r) => [r.path, { path: r.path, from: r.before, to: r.after }]),
  );
  const afterMap = new Map(after.map((f) => [f.path, f]));
  const beforeSet = new Set(before.map((f) => f.path));
  for (const f of before) {
    const now = afterMap.get(f.path);
    const known = byPath.get(f.path);
    if (!known && now && now.size === f.size && now.mtimeMs === f.mtimeMs) continue;
    byPath.set(f.path, { path: f.path, from: 'large', to: now ? 'large' : known?.to });
  }
  for (const f of after) {
    if (beforeSet.has(f.path)) continue;
    // Left the tree only because it grew past the cap: its old content is still restorable.
    byPath.set(f.path, { path: f.path, from: byPath.get(f.path)?.from, to: 'large' });
  }
  return [...byPath.values()];
}

/** Merges the changes of a turn's steps (in order): each path from its first step's `from` to its last step's `to`. */
export function mergeSteps(steps: readonly OwnChange[][]): Map<string, OwnChange> {
  const own = new Map<string, OwnChange>();
  for (const step of steps)
    for (const c of step) {
      const known = own.get(c.path);
      own.set(c.path, known ? { ...known, to: c.to } : { ...c });
    }
  for (const [path, c] of own) if (sameSide(c.from, c.to)) own.delete(path);
  return own;
}

/** The review card's view of one change: its kind, its text on each side, and what a revert cannot do. */
export async function describeChange(repo: ShadowRepo, c: OwnChange): Promise<TurnChange> {
  const kind = c.from === undefined ? 'created' : c.to === undefined ? 'deleted' : 'modified';
  const change: TurnChange = { path: c.path, kind };
  if (c.from === 'large') {
    change.tooLarge = true;
    change.notRestorable = 'over the size cap: it was listed, not copied';
  }
  for (const side of ['from', 'to'] as const) {
    const e = c[side];
    if (!e || e === 'large' || e.kind === 'other') continue;
    const text = await readSide(repo, e);
    if (text.kind === 'missing') {
      if (side === 'from') change.notRestorable = damaged(text.error);
      continue;
    }
    if (e.kind === 'link') change.link = true;
    if (text.kind === 'binary') change.binary = true;
    else change[side === 'from' ? 'before' : 'after'] = text.text;
  }
  if (c.from !== undefined && c.from !== 'large' && c.from.kind === 'other')
    change.notRestorable = 'a nested repository or special entry';
  return change;
}

/** Why a change cannot come back from a checkpoint whose object is gone. */
export function damaged(error: string): string {
  const first = error.split('\n').find((l) => l.trim()) ?? error;
  return `its saved copy is missing from the shadow repository (damaged checkpoint: ${first.trim().slice(0, 160)})`;
}

/** A blob as text, binary, or missing (a damaged checkpoint). Contract: never throws. */
export async function readSide(
  repo: ShadowRepo,
  e: TreeEntry,
): Promise<{ kind: 'text'; text: string } | { kind: 'binary' } | { kind: 'missing'; error: string }> {
  try {
    const bytes = await repo.blob(e.sha);
    if (e.kind !== 'link' && bytes.subarray(0, 8000).includes(0)) return { kind: 'binary' };
    return { kind: 'text', text: bytes.subarray(0, MAX_SHOWN_BYTES).toString('utf8') };
  } catch (err) {
    return { kind: 'missing', error: (err as Error).message };
  }
}
