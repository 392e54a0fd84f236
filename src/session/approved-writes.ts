/**
 * The writes a person approved on a card this turn: path → sha256 of the content the
 * card showed (an edit included). The turn review compares each changed file with it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { ApprovalRequest, Decision } from '../protocol';

/** The part of a broker outcome that says who decided what. */
export type DecisionOutcome =
  | { kind: 'decided'; decision: Decision; approver: 'human' | 'grant' | `hook:${string}` }
  | { kind: 'blocked' | 'failed' };

/** Hex sha256 of text or bytes. */
export const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

export class ApprovedWrites {
  private readonly byPath = new Map<string, string>();

  /** Records a card's diff when a person (not a grant, not a hook) approved it: what they saw. */
  heard(request: ApprovalRequest, outcome: DecisionOutcome): void {
    if (outcome.kind !== 'decided' || outcome.approver !== 'human') return;
    if (outcome.decision.kind !== 'approve' && outcome.decision.kind !== 'edit') return;
    const p = request.preview;
    if (p.kind !== 'diff' || p.binary) return;
    this.byPath.set(posix.normalize(p.path), sha256(p.after));
  }

  /** The turn's approvals, emptied for the next turn. */
  take(): Map<string, string> {
    const out = new Map(this.byPath);
    this.byPath.clear();
    return out;
  }
}

/** sha256 of a project file's content now; undefined when it cannot be read. */
export function currentHash(root: string, path: string): string | undefined {
  try {
    return sha256(readFileSync(join(root, path)));
  } catch {
    return undefined;
  }
}
