/**
 * The fallback without git: pre-images of every file warden's own tools write or create, under
 * `$WARDEN_HOME/checkpoints/<session>/`. Commands' changes are not covered, and nothing survives a
 * restart; the session says so. Only the first pre-image per file per turn counts.
 * Contract: recordPreImage throws when the pre-image cannot be saved, so the write does not happen
 * without a way back.
 */
import { chmod, copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { readFileSafely } from '../tools/fs/safe-fs';
import type { PreImage as ToolPreImage } from '../tools/types';
import type { CheckpointStore, RevertTarget } from './store';
import type { CheckpointMode, RevertPlan, RevertResult, TurnChange } from './types';

type PreImage = { kind: 'file'; blob: string; mode: number } | { kind: 'absent' };

/** Text shown per side of a change on the review card. */
const MAX_SHOWN_BYTES = 256 * 1024;
type Turn = { id: string; dir: string; files: Map<string, PreImage> };

/** File operations a revert uses on the project (see the constructor). */
export type RevertFiles = {
  write(absPath: string, bytes: Buffer, mode: number): Promise<void>;
  remove(absPath: string): Promise<void>;
};

export class PreImageStore implements CheckpointStore {
  readonly mode: CheckpointMode;
  private turns: Turn[] = [];
  private current: Turn | undefined;
  private counter = 0;

  /**
   * `files`: how a revert writes and removes project files. The session passes race-free versions
   * (safe-fs.ts, bound to the project root); without them a revert goes by path.
   */
  constructor(
    private readonly dir: string,
    private readonly files?: RevertFiles,
    reason = 'git is not installed',
    private readonly root?: string,
  ) {
    this.mode = { kind: 'copies', reason };
  }

  /** Nothing to open: copies are made when a write asks. */
  prepare(): void {}

  beginTurn(): string {
    this.counter += 1;
    this.current = {
      id: `turn-${this.counter}`,
      dir: join(this.dir, `turn-${this.counter}`),
      files: new Map(),
    };
    this.turns.push(this.current);
    return this.current.id;
  }

  /** Copies cover only warden's own writes, which call recordPreImage. */
  async beforeChange(): Promise<undefined> {
    return undefined;
  }

  /** Copies are taken inside the call, never in the background: nothing to wait for. */
  async settled(): Promise<void> {}

  async endTurn(): Promise<{ turnId: string; changes: TurnChange[] } | undefined> {
    const turn = this.current;
    this.current = undefined;
    if (!turn || turn.files.size === 0) return undefined;
    return { turnId: turn.id, changes: await this.describe([turn]) };
  }

  async turnChanges(turnId: string): Promise<TurnChange[]> {
    const turn = this.turns.find((t) => t.id === turnId);
    return turn ? this.describe([turn]) : [];
  }

  /** `pre`: the content the tool read through a verified descriptor; without it the path is read again. */
  async recordPreImage(absPath: string, pre?: ToolPreImage): Promise<void> {
    const turn = this.current ?? this.turns.find((t) => t.id === this.beginTurn());
    if (!turn || turn.files.has(absPath)) return;
    if (pre) return this.savePreImage(turn, absPath, pre);
    let info: import('node:fs').Stats | undefined;
    try {
      info = await stat(absPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (!info) {
      turn.files.set(absPath, { kind: 'absent' });
      return;
    }
    if (!info.isFile()) throw new Error(`${absPath} is not a regular file; it cannot be checkpointed.`);
    await mkdir(turn.dir, { recursive: true, mode: 0o700 });
    const blob = join(turn.dir, `${turn.files.size + 1}.pre`);
    await copyFile(absPath, blob);
    turn.files.set(absPath, { kind: 'file', blob, mode: info.mode & 0o7777 });
    await this.writeManifest(turn);
  }

  // Stores bytes already read safely: reopening the path could read another file after a swap.
  private async savePreImage(turn: Turn, absPath: string, pre: ToolPreImage): Promise<void> {
    if (pre.kind === 'absent') {
      turn.files.set(absPath, { kind: 'absent' });
      return;
    }
    await mkdir(turn.dir, { recursive: true, mode: 0o700 });
    const blob = join(turn.dir, `${turn.files.size + 1}.pre`);
    await writeFile(blob, pre.bytes, { mode: 0o600 });
    turn.files.set(absPath, { kind: 'file', blob, mode: pre.mode });
    await this.writeManifest(turn);
  }

  private writeManifest(turn: Turn): Promise<void> {
    return writeFile(
      join(turn.dir, 'manifest.json'),
      JSON.stringify(Object.fromEntries(turn.files), null, 1),
    );
  }

  async plan(target: RevertTarget): Promise<RevertPlan> {
    const turns = this.pick(target);
    return { turns: turns.length, changes: await this.describe(turns, pathsOf(target)) };
  }

  /** Restores the chosen turns, newest first, so the oldest pre-image is what stays. */
  async revert(target: RevertTarget): Promise<RevertResult> {
    const turns = this.pick(target);
    const only = pathsOf(target);
    const result: RevertResult = { restored: [], removed: [], skipped: [], turns: turns.length };
    for (const turn of [...turns].reverse()) {
      let skipped = false;
      for (const [path, pre] of [...turn.files.entries()].reverse()) {
        if (only && !only.includes(this.rel(path))) continue;
        // One file that cannot be put back (a folder swapped for a link meanwhile: safe-fs refuses) is
        // reported with its reason, as the git store does; the rest of the turn is still restored.
        try {
          (await this.restore(path, pre)) === 'removed'
            ? result.removed.push(this.rel(path))
            : result.restored.push(this.rel(path));
        } catch (err) {
          skipped = true;
          result.skipped.push({ path: this.rel(path), reason: (err as Error).message });
        }
      }
      // A turn with a file not put back keeps its pre-images, so the revert can be tried again.
      if (only || skipped) continue;
      turn.files.clear();
      await rm(turn.dir, { recursive: true, force: true });
    }
    return result;
  }

  /** Puts one file back to its pre-image. Contract: throws when it cannot; nothing outside the project is touched. */
  private async restore(path: string, pre: PreImage): Promise<'restored' | 'removed'> {
    if (pre.kind === 'absent') {
      await (this.files ? this.files.remove(path) : rm(path, { force: true }));
      return 'removed';
    }
    if (this.files) {
      await this.files.write(path, await readFile(pre.blob), pre.mode);
      return 'restored';
    }
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.warden-revert-${process.pid}`;
    await copyFile(pre.blob, temp);
    await chmod(temp, pre.mode);
    await rename(temp, path);
    return 'restored';
  }

  private pick(target: RevertTarget): Turn[] {
    if ('turnId' in target) return this.turns.filter((t) => t.id === target.turnId && t.files.size > 0);
    return this.turns.filter((t) => t.files.size > 0).slice(-target.turns);
  }

  /** Paths relative to the root when it is known (the review card's form), else as recorded. */
  private rel(path: string): string {
    return this.root ? relative(this.root, path).split(sep).join('/') : path;
  }

  private async describe(turns: Turn[], only?: readonly string[]): Promise<TurnChange[]> {
    const first = new Map<string, PreImage>();
    // The oldest turn's pre-image wins: that is the state the files go back to.
    for (const turn of turns)
      for (const [path, pre] of turn.files) if (!first.has(path)) first.set(path, pre);
    const out: TurnChange[] = [];
    for (const [path, pre] of first) {
      const rel = this.rel(path);
      if (only && !only.includes(rel)) continue;
      // Read through a verified descriptor: a path swapped for a link must not show an outside file.
      const read = this.root
        ? await readFileSafely({ path, root: this.root }, MAX_SHOWN_BYTES).catch(() => undefined)
        : undefined;
      const now = read?.kind === 'file' ? read.bytes : undefined;
      const before = pre.kind === 'file' ? await readFile(pre.blob).catch(() => undefined) : undefined;
      out.push({
        path: rel,
        kind: pre.kind === 'absent' ? 'created' : now ? 'modified' : 'deleted',
        ...(before ? { before: before.toString('utf8') } : {}),
        ...(now ? { after: now.toString('utf8') } : {}),
      });
    }
    return out;
  }
}

function pathsOf(target: RevertTarget): readonly string[] | undefined {
  return 'paths' in target ? target.paths : undefined;
}
