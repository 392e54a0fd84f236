/**
 * The per-project turn index: which checkpoints each turn began and ended with, so /undo and
 * revert_turn work after a restart. One JSON object per line in `turns.jsonl` (append-only; later
 * lines for the same turn add to it); a torn last line (a crash mid-write) is skipped.
 */
import { appendFileSync, readFileSync } from 'node:fs';

/** One turn as the index knows it. `before`: checkpoint before its first change; `after`: at its end. */
export type TurnRecord = {
  turnId: string;
  sessionId: string;
  startedAt: string;
  before?: string;
  after?: string;
  endedAt?: string;
  /** Set once the turn was reverted (whole, by /undo or revert_turn); it is not offered again. */
  reverted?: boolean;
};

export class TurnIndex {
  private known: Map<string, TurnRecord> | undefined;

  /** Names the index; it is read on first use (a project's history is not read before the first screen). */
  constructor(private readonly file: string) {}

  /** Adds or updates a turn. Contract: throws when the line cannot be written (no way back → no change). */
  put(update: Partial<TurnRecord> & { turnId: string }): TurnRecord {
    const turns = this.turns();
    const next = { ...(turns.get(update.turnId) ?? {}), ...update } as TurnRecord;
    appendFileSync(this.file, `${JSON.stringify(update)}\n`, { mode: 0o600 });
    turns.set(update.turnId, next);
    return next;
  }

  get(turnId: string): TurnRecord | undefined {
    return this.turns().get(turnId);
  }

  /** Turns that changed files and were not reverted, oldest first. */
  undoable(): TurnRecord[] {
    return [...this.turns().values()].filter(
      (t) => t.before && t.after && t.before !== t.after && !t.reverted,
    );
  }

  /** The index as the file holds it, read once. Contract: never throws; an unreadable file is an empty index. */
  private turns(): Map<string, TurnRecord> {
    if (this.known) return this.known;
    const turns = new Map<string, TurnRecord>();
    this.known = turns;
    let text = '';
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return turns;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const rec = JSON.parse(line) as Partial<TurnRecord> & { turnId?: unknown };
        if (typeof rec.turnId !== 'string') continue;
        const known = turns.get(rec.turnId);
        turns.set(rec.turnId, { ...(known ?? {}), ...rec } as TurnRecord);
      } catch {
        // A torn line: the rest of the index still counts.
      }
    }
    return turns;
  }
}
