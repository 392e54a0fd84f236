/**
 * Checkpoints in the shadow git repository (shadow-repo.ts): one before the first call of a turn that
 * can change files (shared by the turn's later calls) and one at the turn's end. The turn index
 * (turn-index.ts) keeps each turn's first and last checkpoint, so a revert works after a restart. A
 * revert puts every path the turn changed back to its state before the turn — commands' changes too.
 */
import { join } from 'node:path';
import { restorePath, type RestoreFs, type RestoreTarget } from './restore';
import { type RawChange, ShadowRepo, type TreeEntry } from './shadow-repo';
import { type TurnRecord, TurnIndex } from './turn-index';
import type { CheckpointMode, LargeFile, RevertPlan, RevertResult, TurnChange } from './types';
import type { CheckpointStore, RevertTarget } from './store';

/** Text shown per side of a change on the review card; longer content is cut (the revert uses the blob). */
const MAX_SHOWN_BYTES = 256 * 1024;

export type GitCheckpointOptions = {
  /** `$WARDEN_HOME/checkpoints/<project-id>` */
  dir: string;
  root: string;
  git: string;
  sessionId: string;
  maxFileBytes: number;
  exclude?: readonly string[];
  fs?: RestoreFs;
};

export class GitCheckpoints implements CheckpointStore {
  readonly mode: CheckpointMode;
  private readonly repo: ShadowRepo;
  private readonly index: TurnIndex;
  private current: TurnRecord | undefined;
  /** The turn's first snapshot, taken or under way. */
  private first: Promise<void> | undefined;
  private counter = 0;

  constructor(private readonly o: GitCheckpointOptions) {
    this.mode = { kind: 'git', dir: o.dir };
    this.repo = new ShadowRepo({
      dir: o.dir,
      root: o.root,
      git: o.git,
      maxFileBytes: o.maxFileBytes,
      ...(o.exclude ? { exclude: o.exclude } : {}),
    });
    this.index = new TurnIndex(join(o.dir, 'turns.jsonl'));
  }

  prepare(): void {
    this.repo.prepare();
  }

  beginTurn(): string {
    this.counter += 1;
    const turnId = `${this.o.sessionId.slice(0, 8)}-${this.counter}`;
    this.current = { turnId, sessionId: this.o.sessionId, startedAt: new Date().toISOString() };
    this.first = undefined;
    return turnId;
  }

  /**
   * A revert needs only the state before the turn's first change (and the end of the turn), so the
   * turn's first call that can change files takes one snapshot and every later call shares it: a
   * second write of the same turn waits for no git at all. The gate starts it when the card shows
   * and awaits it after the decision; a failed snapshot is tried again by the next call.
   */
  beforeChange(label: string): Promise<void> {
    if (!this.current) this.beginTurn();
    const turn = this.current as TurnRecord;
    this.first ??= this.repo.snapshot(`before ${label} (turn ${turn.turnId})`).then(
      (point) => {
        if (this.current?.turnId === turn.turnId)
          this.current = this.index.put({ ...turn, before: point.commit });
      },
      (err: unknown) => {
        this.first = undefined;
        throw err;
      },
    );
    return this.first;
  }

  async settled(): Promise<void> {
    await this.repo.settled();
  }

  /** Pre-images are not needed: the checkpoint before the call holds the whole tree. */
  async recordPreImage(): Promise<void> {}

  async endTurn(): Promise<{ turnId: string; changes: TurnChange[] } | undefined> {
    await this.first?.catch(() => undefined);
    const turn = this.current;
    this.current = undefined;
    this.first = undefined;
    if (!turn?.before) return undefined;
    const after = await this.repo.snapshot(`end of turn ${turn.turnId}`);
    const done = this.index.put({
      turnId: turn.turnId,
      after: after.commit,
      endedAt: new Date().toISOString(),
    });
    return { turnId: turn.turnId, changes: await this.changes(done) };
  }

  async turnChanges(turnId: string): Promise<TurnChange[]> {
    const turn = this.index.get(turnId);
    return turn ? this.changes(turn) : [];
  }

  async plan(target: RevertTarget): Promise<RevertPlan> {
    const { turns, changes } = await this.select(target);
    return { turns: turns.length, changes };
  }

  async revert(target: RevertTarget): Promise<RevertResult> {
    const { turns, changes } = await this.select(target);
    const result: RevertResult = { restored: [], removed: [], skipped: [], turns: turns.length };
    const base = turns[0]?.before;
    if (!base) return { ...result, turns: 0 };
    const entries = await this.repo.entries(
      base,
      changes.map((c) => c.path),
    );
    for (const change of changes) {
      if (change.tooLarge) {
        result.skipped.push({ path: change.path, reason: 'over the size cap: it was listed, not copied' });
        continue;
      }
      try {
        const target = await this.targetOf(entries.get(change.path));
        if (!target) {
          result.skipped.push({ path: change.path, reason: 'a nested repository or special entry' });
          continue;
        }
        const done = await restorePath(this.o.root, change.path, target, this.o.fs);
        (done === 'removed' ? result.removed : result.restored).push(change.path);
      } catch (err) {
        result.skipped.push({ path: change.path, reason: (err as Error).message });
      }
    }
    // A whole-turn revert is done once; a revert of chosen files leaves the rest of the turn undoable.
    if (!('paths' in target && target.paths))
      for (const t of turns) this.index.put({ turnId: t.turnId, reverted: true });
    return result;
  }

  /** The turns a target names (oldest first) and the changes to undo: each path from the first turn's start to the last turn's end. */
  private async select(target: RevertTarget): Promise<{ turns: TurnRecord[]; changes: TurnChange[] }> {
    const turns =
      'turnId' in target
        ? [this.index.get(target.turnId)].filter((t): t is TurnRecord => !!t?.before && !!t.after)
        : this.index.undoable().slice(-target.turns);
    const first = turns[0];
    const last = turns[turns.length - 1];
    if (!first?.before || !last?.after) return { turns: [], changes: [] };
    let changes = await this.changes({ ...first, after: last.after });
    const paths = 'paths' in target ? target.paths : undefined;
    if (paths) changes = changes.filter((c) => paths.includes(c.path));
    return { turns, changes };
  }

  /** The files a turn changed, with their text on each side. */
  private async changes(turn: TurnRecord): Promise<TurnChange[]> {
    if (!turn.before || !turn.after || turn.before === turn.after) return [];
    const raw = await this.repo.diff(turn.before, turn.after);
    const [largeBefore, largeAfter] = await Promise.all([
      this.repo.largeOf(turn.before),
      this.repo.largeOf(turn.after),
    ]);
    const byPath = new Map<string, TurnChange>();
    for (const r of raw) byPath.set(r.path, await this.describe(r));
    mergeLarge(byPath, largeBefore, largeAfter, raw);
    return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  private async describe(r: RawChange): Promise<TurnChange> {
    const kind = r.status === 'A' ? 'created' : r.status === 'D' ? 'deleted' : 'modified';
    const change: TurnChange = { path: r.path, kind };
    for (const side of ['before', 'after'] as const) {
      const e = r[side];
      if (!e || e.kind === 'other') continue;
      const bytes = await this.repo.blob(e.sha);
      if (e.kind === 'link') change.link = true;
      if (bytes.subarray(0, 8000).includes(0)) change.binary = true;
      else change[side] = bytes.subarray(0, MAX_SHOWN_BYTES).toString('utf8');
    }
    return change;
  }

  private async targetOf(e: TreeEntry | undefined): Promise<RestoreTarget | undefined> {
    if (!e) return { kind: 'absent' };
    if (e.kind === 'other') return undefined;
    const bytes = await this.repo.blob(e.sha);
    return e.kind === 'link'
      ? { kind: 'link', target: bytes.toString('utf8') }
      : { kind: 'file', bytes, mode: e.mode };
  }
}

/**
 * Files over the cap are in neither tree: their changes come from the lists. A file listed before the turn
 * cannot be restored (`tooLarge`); one that only grew past the cap during the turn can (its old blob is kept).
 */
function mergeLarge(
  byPath: Map<string, TurnChange>,
  before: readonly LargeFile[],
  after: readonly LargeFile[],
  raw: readonly RawChange[],
): void {
  const afterMap = new Map(after.map((f) => [f.path, f]));
  const inAfterTree = new Set(raw.filter((r) => r.after).map((r) => r.path));
  for (const f of before) {
    const now = afterMap.get(f.path);
    const known = byPath.get(f.path);
    if (known) byPath.set(f.path, { path: f.path, kind: 'modified', tooLarge: true });
    else if (!now && !inAfterTree.has(f.path))
      byPath.set(f.path, { path: f.path, kind: 'deleted', tooLarge: true });
    else if (now && (now.size !== f.size || now.mtimeMs !== f.mtimeMs))
      byPath.set(f.path, { path: f.path, kind: 'modified', tooLarge: true });
  }
  const beforeSet = new Set(before.map((f) => f.path));
  for (const f of after) {
    if (beforeSet.has(f.path)) continue;
    const known = byPath.get(f.path);
    // Deleted from the tree only because it grew past the cap: modified, and its old content is restorable.
    if (known?.kind === 'deleted')
      byPath.set(f.path, {
        path: f.path,
        kind: 'modified',
        ...(known.before !== undefined ? { before: known.before } : {}),
      });
    else if (!known) byPath.set(f.path, { path: f.path, kind: 'created' });
  }
}
