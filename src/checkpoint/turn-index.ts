/**
 * The per-project turn index: which checkpoints each turn began and ended with, so /undo and
 * revert_turn work after a restart. One JSON object per line in `turns.jsonl` (append-only; later
 * lines for the same turn add to it); a torn last line (a crash mid-write) is skipped.
 */
import { appendFileSync, readFileSync } from 'node:fs';

/**
 * One call of a turn that could change files: the checkpoint just before it ran and just after it
 * ended. What changed between the two is the call's; what changed between calls is someone else's
 * (another warden, the person's editor). `post` is absent while the call runs, and stays absent when
 * the checkpoint after it failed.
 */
export type TurnStep = { pre: string; post?: string; label?: string };

/** One turn as the index knows it. `before`: checkpoint before its first change; `after`: at its end. */
export type TurnRecord = {
  turnId: string;
  sessionId: string;
  startedAt: string;
  before?: string;
  after?: string;
  endedAt?: string;
  /** The turn's calls that could change files (older lines have none: one step from `before` to `after`). */
  steps?: TurnStep[];
  /** Files warden's own tools wrote where checkpoints never look (node_modules/): named, not restorable. */
  leftOut?: { path: string; kind: 'created' | 'modified' }[];
  /** Why the checkpoint at the turn's end failed: what its last calls changed is not known. */
  endFailed?: string;
  /** Set once the turn was reverted (whole, by /undo or revert_turn); it is not offered again. */
  reverted?: boolean;
};

/** The steps of a turn; a line written before steps existed is one step from its start to its end. */
export function stepsOf(t: TurnRecord): TurnStep[] {
  if (t.steps) return t.steps;
  if (!t.before) return [];
  return [{ pre: t.before, ...(t.after ? { post: t.after } : {}) }];
}

/** True when a turn's own calls changed something (or may have: a checkpoint after one failed). */
function changedSomething(t: TurnRecord): boolean {
  return stepsOf(t).some((s) => s.post === undefined || s.post !== s.pre);
}

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

  /**
   * The next free number for the turns of a session whose ids start with `prefix`: a session
   * continued after a restart goes on counting, so its new turns never take an old turn's id (they
   * did, and the index merged the two turns into one).
   */
  nextNumber(prefix: string): number {
    let max = 0;
    for (const id of this.turns().keys()) {
      if (!id.startsWith(prefix)) continue;
      const n = Number(id.slice(prefix.length));
      if (Number.isInteger(n) && n > max) max = n;
    }
    return max + 1;
  }

  /** Turns whose own calls changed files and were not reverted, oldest first (one whose end checkpoint failed too). */
  undoable(): TurnRecord[] {
    return [...this.turns().values()].filter(
      (t) => t.before && (t.after || t.endFailed) && !t.reverted && changedSomething(t),
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
