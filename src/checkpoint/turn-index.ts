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
  private readonly turns = new Map<string, TurnRecord>();

  /** Reads the index. Contract: never throws; an unreadable file is an empty index. */
  constructor(private readonly file: string) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const rec = JSON.parse(line) as Partial<TurnRecord> & { turnId?: unknown };
        if (typeof rec.turnId !== 'string') continue;
        const known = this.turns.get(rec.turnId);
        this.turns.set(rec.turnId, { ...(known ?? {}), ...rec } as TurnRecord);
      } catch {
        // A torn line: the rest of the index still counts.
      }
    }
  }

  /** Adds or updates a turn. Contract: throws when the line cannot be written (no way back → no change). */
  put(update: Partial<TurnRecord> & { turnId: string }): TurnRecord {
    const next = { ...(this.turns.get(update.turnId) ?? {}), ...update } as TurnRecord;
    appendFileSync(this.file, `${JSON.stringify(update)}\n`, { mode: 0o600 });
    this.turns.set(update.turnId, next);
    return next;
  }

  get(turnId: string): TurnRecord | undefined {
    return this.turns.get(turnId);
  }

  /** Turns that changed files and were not reverted, oldest first. */
  undoable(): TurnRecord[] {
    return [...this.turns.values()].filter((t) => t.before && t.after && t.before !== t.after && !t.reverted);
  }
}
