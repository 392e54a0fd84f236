/**
 * Checkpoints in the shadow git repository (shadow-repo.ts): one just before and one just after each
 * call of a turn that can change files, and one at the turn's end. The turn index (turn-index.ts)
 * keeps them, so a revert works after a restart. A turn's changes are what its own calls changed —
 * commands' changes too; a change made by someone else meanwhile (another warden on the project, the
 * person's editor) is shown as such and is never reverted silently: a file changed since the turn
 * changed it is kept unless a person approved the revert with both versions on the card.
 * (Longer than 200 lines: the turn's life and its revert read best side by side.)
 */
import { join, relative, sep } from 'node:path';
import type { PreImage } from '../tools/types';
import { restorePath, type RestoreFs, type RestoreTarget } from './restore';
import { ShadowRepo } from './shadow-repo';
import type { AfterChange, CheckpointStore, EndedTurn, RevertOptions, RevertTarget } from './store';
import {
  type OwnChange,
  type Side,
  damaged,
  describeChange,
  mergeSteps,
  readSide,
  sameSide,
  stepChanges,
} from './turn-changes';
import { type TurnRecord, type TurnStep, TurnIndex, stepsOf } from './turn-index';
import type { CheckpointMode, RevertPlan, RevertResult, TurnChange } from './types';

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

/** A step while its turn runs: `after` is the checkpoint after the call, under way. */
type LiveStep = TurnStep & { after?: Promise<void> };

/**
 * What a revert would do to one path: put it back to `to` (from `newest`, what the newest turn left),
 * or leave it, and why. `conflict`: the change with both versions, when someone else changed it since.
 */
type Action = { path: string; to: Side; newest: Side; kept?: string; conflict?: TurnChange };

export class GitCheckpoints implements CheckpointStore {
  readonly mode: CheckpointMode;
  private readonly repo: ShadowRepo;
  private readonly index: TurnIndex;
  private current: TurnRecord | undefined;
  private steps: LiveStep[] = [];
  /** Files of the turn that checkpoints leave out, which warden's own tools wrote. */
  private leftOut = new Map<string, 'created' | 'modified'>();
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
    const prefix = `${this.o.sessionId.slice(0, 8)}-`;
    // A session continued after a restart counts on from its turns in the index.
    this.counter = Math.max(this.counter + 1, this.index.nextNumber(prefix));
    const turnId = `${prefix}${this.counter}`;
    this.current = { turnId, sessionId: this.o.sessionId, startedAt: new Date().toISOString() };
    this.steps = [];
    this.leftOut = new Map();
    return turnId;
  }

  /**
   * The checkpoint just before a call runs (an incremental one is a `git status` when nothing
   * changed). The gate also starts one while the card shows (`ahead`), so the one after the decision
   * finds little to stage; only the one taken just before the call counts, so an edit someone else
   * made while the person read the card is not taken for the call's own.
   */
  async beforeChange(label: string, ahead?: boolean): Promise<AfterChange | undefined> {
    if (!this.current) this.beginTurn();
    const turn = this.current as TurnRecord;
    const point = await this.repo.snapshot(`before ${label} (turn ${turn.turnId})`);
    if (ahead || this.current?.turnId !== turn.turnId) return undefined;
    const step: LiveStep = { pre: point.commit, label };
    this.steps.push(step);
    if (!turn.before) this.current = this.index.put({ ...turn, before: point.commit });
    return () => {
      step.after ??= this.repo.snapshot(`after ${label} (turn ${turn.turnId})`).then(
        (p) => {
          step.post = p.commit;
        },
        () => undefined, // the turn's next checkpoint closes the step instead
      );
      return step.after;
    };
  }

  async settled(): Promise<void> {
    await this.repo.settled();
  }

  /**
   * Pre-images are not needed: the checkpoint before the call holds the whole tree — except where
   * checkpoints never look (node_modules/, WARDEN_HOME inside the project): such a file a tool writes
   * is named on the review card as not restorable, with why.
   */
  async recordPreImage(absPath: string, pre?: PreImage): Promise<void> {
    const path = relative(this.o.root, absPath).split(sep).join('/');
    if (!this.current || path.startsWith('..') || !leftOut(path, this.o.exclude ?? [])) return;
    this.leftOut.set(path, pre?.kind === 'absent' ? 'created' : 'modified');
  }

  async endTurn(): Promise<EndedTurn | undefined> {
    const turn = this.current;
    const steps = this.steps;
    const outside = [...this.leftOut].map(([path, kind]) => ({ path, kind }));
    this.current = undefined;
    this.steps = [];
    this.leftOut = new Map();
    await Promise.all(steps.map((s) => s.after));
    if (!turn?.before) return undefined;
    let end: string | undefined;
    let failed: string | undefined;
    try {
      end = (await this.repo.snapshot(`end of turn ${turn.turnId}`)).commit;
    } catch (err) {
      failed = (err as Error).message;
    }
    // A step whose checkpoint after it failed (or never came) ends at the turn's next checkpoint.
    const saved: TurnStep[] = steps.map((s, i) => {
      const post = s.post ?? steps[i + 1]?.pre ?? end;
      return { pre: s.pre, ...(post ? { post } : {}), ...(s.label ? { label: s.label } : {}) };
    });
    const done = this.index.put({
      turnId: turn.turnId,
      steps: saved,
      endedAt: new Date().toISOString(),
      ...(outside.length > 0 ? { leftOut: outside } : {}),
      ...(end ? { after: end } : { endFailed: failed ?? 'unknown' }),
    });
    const changes = await this.ownChanges(done, end);
    return {
      turnId: turn.turnId,
      changes,
      ...(failed !== undefined ? { incomplete: incompleteReason(failed) } : {}),
    };
  }

  async turnChanges(turnId: string): Promise<TurnChange[]> {
    const turn = this.index.get(turnId);
    return turn ? this.ownChanges(turn, turn.after) : [];
  }

  async plan(target: RevertTarget): Promise<RevertPlan> {
    const turns = this.select(target);
    const { actions, unknown } = await this.actions(turns, target, {});
    const changes: TurnChange[] = [];
    for (const a of actions) {
      if (a.conflict)
        changes.push(a.kept !== undefined ? { ...a.conflict, notRestorable: a.kept } : a.conflict);
      else if (!sameSide(a.to, a.newest))
        changes.push(await describeChange(this.repo, { path: a.path, from: a.to, to: a.newest }));
    }
    return { turns: turns.length, changes: [...changes, ...unknown] };
  }

  async revert(target: RevertTarget, options: RevertOptions = {}): Promise<RevertResult> {
    const turns = this.select(target);
    const result: RevertResult = { restored: [], removed: [], skipped: [], turns: turns.length };
    if (turns.length === 0) return result;
    const { actions, unknown } = await this.actions(turns, target, options);
    for (const a of actions) {
      if (a.kept !== undefined) {
        result.skipped.push({ path: a.path, reason: a.kept });
        continue;
      }
      try {
        const target = await this.targetOf(a.to);
        if ('kept' in target) {
          result.skipped.push({ path: a.path, reason: target.kept });
          continue;
        }
        const done = await restorePath(this.o.root, a.path, target, this.o.fs);
        (done === 'removed' ? result.removed : result.restored).push(a.path);
      } catch (err) {
        result.skipped.push({ path: a.path, reason: (err as Error).message });
      }
    }
    for (const u of unknown) result.skipped.push({ path: u.path, reason: u.notRestorable ?? 'not known' });
    // A whole-turn revert is done once; a revert of chosen files leaves the rest of the turn undoable.
    if (!('paths' in target && target.paths))
      for (const t of turns) this.index.put({ turnId: t.turnId, reverted: true });
    return result;
  }

  /** The turns a target names, oldest first. */
  private select(target: RevertTarget): TurnRecord[] {
    if (!('turnId' in target)) {
      // "The latest turns" are this session's own: another warden on the project writes the same
      // index, and its latest turn is not ours to undo. A new session (after a restart) has none yet:
      // then the project's latest.
      const all = this.index.undoable();
      const own = all.filter((t) => t.sessionId === this.o.sessionId);
      return (own.length > 0 ? own : all).slice(-target.turns);
    }
    const turn = this.index.get(target.turnId);
    return turn?.before && (turn.after || turn.endFailed) ? [turn] : [];
  }

  /**
   * What reverting `turns` does, path by path, against the project as it is now (a fresh checkpoint):
   * newest turn first, each path goes back to its state before the turn's first change of it — unless
   * it is not what the turn left (someone else changed it since), which is kept without a person's
   * approval. `unknown`: paths changed after a turn's last good checkpoint, which nobody can attribute.
   */
  private async actions(
    turns: readonly TurnRecord[],
    target: RevertTarget,
    options: RevertOptions,
  ): Promise<{ actions: Action[]; unknown: TurnChange[] }> {
    // The project as it is now, to tell what someone else changed since. When that checkpoint fails
    // (a neighbour's lock, a tree changing under it), nothing can be checked: each file is kept and
    // says why, unless a person approved the revert over whatever is there.
    const taken = await this.repo.snapshot('before a revert').then(
      (p) => p.commit,
      (err: Error) => err,
    );
    const now = typeof taken === 'string' ? taken : undefined;
    const unchecked = typeof taken === 'string' ? undefined : uncheckedReason(taken);
    const paths = 'paths' in target ? target.paths : undefined;
    const current = new Map<string, Side>();
    const decided = new Map<string, Action>();
    const unknown: TurnChange[] = [];
    for (const turn of [...turns].reverse()) {
      const own = await this.ownOf(turn);
      const wanted = [...own.changes.values()].filter((c) => !paths || paths.includes(c.path));
      const missing = wanted.map((c) => c.path).filter((p) => !current.has(p));
      if (now) for (const [p, e] of await this.sidesAt(now, missing)) current.set(p, e);
      for (const c of wanted) {
        const known = decided.get(c.path);
        if (known?.kept !== undefined) continue; // a newer turn's change is kept: older ones stay too
        if (unchecked && !options.overwriteChanged && !known) {
          decided.set(c.path, { path: c.path, to: c.to, newest: c.to, kept: unchecked });
          continue;
        }
        const cur = unchecked && !known ? c.to : current.get(c.path);
        const changedSince = !sameSide(cur, c.to) && !(c.to === 'large' && cur === 'large');
        const conflict = changedSince ? await this.conflictOf(c, cur) : undefined;
        const newest = known ? known.newest : c.to;
        if (conflict && !options.overwriteChanged) {
          decided.set(c.path, { path: c.path, to: cur, newest, kept: CHANGED_SINCE, conflict });
          continue;
        }
        decided.set(c.path, { path: c.path, to: c.from, newest, ...(conflict ? { conflict } : {}) });
        current.set(c.path, c.from);
      }
      if (now) unknown.push(...(await this.unknownOf(turn, own.open, now, own.changes, paths)));
      for (const f of turn.leftOut ?? [])
        if (!paths || paths.includes(f.path))
          unknown.push({ path: f.path, kind: f.kind, notRestorable: LEFT_OUT });
    }
    return { actions: [...decided.values()].sort((a, b) => (a.path < b.path ? -1 : 1)), unknown };
  }

  /** A turn's own changes, and its first step whose end is not known (a failed checkpoint). */
  private async ownOf(turn: TurnRecord): Promise<{ changes: Map<string, OwnChange>; open?: TurnStep }> {
    const steps = stepsOf(turn);
    const known: OwnChange[][] = [];
    for (const s of steps)
      if (s.post) known.push(await stepChanges(this.repo, s.pre, s.post).catch(() => []));
    return {
      changes: mergeSteps(known),
      ...(steps.find((s) => !s.post) ? { open: steps.find((s) => !s.post) } : {}),
    };
  }

  /** The files a turn's own calls changed, for the review card: with what someone else changed meanwhile. */
  private async ownChanges(turn: TurnRecord, end: string | undefined): Promise<TurnChange[]> {
    const own = (await this.ownOf(turn)).changes;
    const out: TurnChange[] = [];
    const atEnd = end ? await this.sidesAt(end, [...own.keys()]) : new Map<string, Side>();
    for (const c of own.values()) {
      const change = await describeChange(this.repo, c);
      if (end && !sameSide(atEnd.get(c.path), c.to) && c.to !== 'large')
        Object.assign(change, { changedSince: (await this.conflictOf(c, atEnd.get(c.path))).changedSince });
      out.push(change);
    }
    for (const f of turn.leftOut ?? [])
      if (!own.has(f.path)) out.push({ path: f.path, kind: f.kind, notRestorable: LEFT_OUT });
    if (end && turn.before)
      for (const c of await stepChanges(this.repo, turn.before, end).catch(() => [])) {
        if (own.has(c.path)) continue;
        out.push({ ...(await describeChange(this.repo, c)), by: 'someone-else' });
      }
    return out.sort((a, b) => (a.path < b.path ? -1 : 1));
  }

  /** A change with both versions: what the turn left, and what is there now. */
  private async conflictOf(c: OwnChange, now: Side): Promise<TurnChange> {
    const change = await describeChange(this.repo, c);
    if (now === undefined) return { ...change, changedSince: { deleted: true } };
    if (now === 'large' || now.kind === 'other') return { ...change, changedSince: {} };
    const text = await readSide(this.repo, now);
    return { ...change, changedSince: text.kind === 'text' ? { now: text.text } : {} };
  }

  /** Paths changed after a turn's last good checkpoint: named, never restored (whose change they are is not known). */
  private async unknownOf(
    turn: TurnRecord,
    open: TurnStep | undefined,
    now: string,
    own: Map<string, OwnChange>,
    paths: readonly string[] | undefined,
  ): Promise<TurnChange[]> {
    if (!open) return [];
    const why = turn.endFailed
      ? `the checkpoint at the end of turn ${turn.turnId} failed (${turn.endFailed})`
      : `the checkpoint after ${open.label ?? 'a call'} of turn ${turn.turnId} failed`;
    const changed = await stepChanges(this.repo, open.pre, now).catch(() => []);
    return changed
      .filter((c) => !own.has(c.path) && (!paths || paths.includes(c.path)))
      .map((c) => ({
        path: c.path,
        kind: c.from === undefined ? 'created' : c.to === undefined ? 'deleted' : 'modified',
        notRestorable: `changed after the turn's last checkpoint — ${why}, so whether the turn or someone else changed it is not known: not restored`,
      }));
  }

  /** The states of `paths` at a checkpoint (large files from its list; absent paths map to undefined). */
  private async sidesAt(commit: string, paths: readonly string[]): Promise<Map<string, Side>> {
    const out = new Map<string, Side>(paths.map((p) => [p, undefined]));
    if (paths.length === 0) return out;
    const [entries, large] = await Promise.all([this.repo.entries(commit, paths), this.repo.largeOf(commit)]);
    for (const [p, e] of entries) out.set(p, e);
    for (const f of large) if (out.has(f.path)) out.set(f.path, 'large');
    return out;
  }

  private async targetOf(side: Side): Promise<RestoreTarget | { kept: string }> {
    if (side === undefined) return { kind: 'absent' };
    if (side === 'large') return { kept: 'over the size cap: it was listed, not copied' };
    if (side.kind === 'other') return { kept: 'a nested repository or special entry' };
    const bytes = await this.repo.blob(side.sha).catch((err: Error) => err);
    if (bytes instanceof Error) return { kept: damaged(bytes.message) };
    return side.kind === 'link'
      ? { kind: 'link', target: bytes.toString('utf8') }
      : { kind: 'file', bytes, mode: side.mode };
  }
}

const LEFT_OUT =
  'left out of checkpoints (warden never keeps node_modules/ or its own home): a revert cannot put it back';

/** True for a path checkpoints never keep: under a node_modules folder, or under an excluded root path. */
function leftOut(path: string, exclude: readonly string[]): boolean {
  if (path.split('/').slice(0, -1).includes('node_modules')) return true;
  return exclude.some((e) => path === e || path.startsWith(`${e.replace(/\/$/, '')}/`));
}

const CHANGED_SINCE =
  'changed since by someone else (changed on disk after the turn: another warden or an editor): kept; a person can revert it from a card that shows both versions';

/** Why a revert kept a file when the checkpoint before it failed. */
function uncheckedReason(err: Error): string {
  const first = err.message.split('\n').find((l) => l.trim()) ?? err.message;
  return `not checked: the checkpoint before the revert failed (${first.trim().slice(0, 160)}) — the tree changed on disk under it, or a neighbour held its lock — so whether someone else changed it since is not known; kept`;
}

/** What the person and headless are told when a turn's end checkpoint failed. */
function incompleteReason(error: string): string {
  const first = error.split('\n').find((l) => l.trim()) ?? error;
  return `the checkpoint at the end of the turn failed (${first.trim().slice(0, 200)}): /undo cannot say what the turn's last call changed, and will not restore it`;
}
