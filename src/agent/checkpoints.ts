import { copyFile, mkdir, readFile, rm, stat, writeFile, rename, chmod } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { PreImage as ToolPreImage } from '../tools/types';

type PreImage = { kind: 'file'; blob: string; mode: number } | { kind: 'absent' };
type Turn = { index: number; dir: string; files: Map<string, PreImage> };

/** File operations a revert uses on the project (see the constructor). */
export type RevertFiles = {
  write(absPath: string, bytes: Buffer, mode: number): Promise<void>;
  remove(absPath: string): Promise<void>;
};

export type RevertResult = { restored: string[]; removed: string[]; turns: number };

/**
 * Pre-images of every file a turn writes or creates, under `$WARDEN_HOME/checkpoints/<session>/`,
 * so `revert_turn` and `/undo` can put files back. Only the first pre-image per file per turn counts.
 * Contract: recordPreImage throws when the pre-image cannot be saved, so the write does not happen
 * without a way back.
 */
export class CheckpointStore {
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
  ) {}

  beginTurn(): number {
    this.counter += 1;
    this.current = { index: this.counter, dir: join(this.dir, `turn-${this.counter}`), files: new Map() };
    this.turns.push(this.current);
    return this.counter;
  }

  /** `pre`: the content the tool read through a verified descriptor; without it the path is read again. */
  async recordPreImage(absPath: string, pre?: ToolPreImage): Promise<void> {
    const turn = this.current ?? this.turns[this.beginTurn() - 1];
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
    await writeFile(join(turn.dir, 'manifest.json'), JSON.stringify(Object.fromEntries(turn.files), null, 1));
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
    await writeFile(join(turn.dir, 'manifest.json'), JSON.stringify(Object.fromEntries(turn.files), null, 1));
  }

  /** How many turns have changes to undo. */
  undoableTurns(): number {
    return this.turns.filter((t) => t.files.size > 0).length;
  }

  /** What `revert(count)` would do, without doing it. */
  plan(count: number): { restore: string[]; remove: string[]; turns: number } {
    const turns = this.turns.filter((t) => t.files.size > 0).slice(-count);
    const restore = new Set<string>();
    const remove = new Set<string>();
    // The oldest turn's pre-image wins: that is the state the files go back to.
    for (const turn of [...turns].reverse()) {
      for (const [path, pre] of turn.files) {
        restore.delete(path);
        remove.delete(path);
        (pre.kind === 'absent' ? remove : restore).add(path);
      }
    }
    return { restore: [...restore], remove: [...remove], turns: turns.length };
  }

  /** Restores the latest `count` turns that changed files, newest first. */
  async revert(count: number): Promise<RevertResult> {
    const result: RevertResult = { restored: [], removed: [], turns: 0 };
    while (result.turns < count) {
      const turn = this.latestWithChanges();
      if (!turn) break;
      for (const [path, pre] of [...turn.files.entries()].reverse()) {
        if (pre.kind === 'absent') {
          await (this.files ? this.files.remove(path) : rm(path, { force: true }));
          result.removed.push(path);
        } else if (this.files) {
          await this.files.write(path, await readFile(pre.blob), pre.mode);
          result.restored.push(path);
        } else {
          await mkdir(dirname(path), { recursive: true });
          const temp = `${path}.warden-revert-${process.pid}`;
          await copyFile(pre.blob, temp);
          await chmod(temp, pre.mode);
          await rename(temp, path);
          result.restored.push(path);
        }
      }
      turn.files.clear();
      await rm(turn.dir, { recursive: true, force: true });
      result.turns += 1;
    }
    return result;
  }

  private latestWithChanges(): Turn | undefined {
    for (let i = this.turns.length - 1; i >= 0; i--) if (this.turns[i]?.files.size) return this.turns[i];
    return undefined;
  }
}
