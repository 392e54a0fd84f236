import { join } from 'node:path';
import type { AuditRecord } from '../protocol/audit';
import { auditFileName } from './day-file';
import { listAuditDays, parseLine } from './reader';
import { readLinesBackward } from './tail-reader';

export type CallKey = { sessionId: string; tool: string; argsHash: string };

/** How far back a call's decision is looked for: the newest lines of the newest two day files. */
const BUDGET_BYTES = 16 * 1024 * 1024;
const DAYS = 2;

/**
 * The decision line of a call that has no outcome line after it — a call that began when warden
 * stopped hard (a second signal, `kill -9`) — read from the end of the log. Undefined when its
 * newest line is an outcome (it was recorded after all) or no line of it is within the budget.
 * Contract: never throws.
 */
export function openDecision(dir: string, key: CallKey): AuditRecord | undefined {
  let found: AuditRecord | undefined;
  let settled = false;
  for (const day of listAuditDays(dir).reverse().slice(0, DAYS)) {
    readLinesBackward(
      join(dir, auditFileName(day)),
      ({ text }) => {
        const parsed = parseLine(text);
        if (parsed.kind !== 'record') return 'more';
        const r = parsed.record;
        if (r.sessionId !== key.sessionId || r.tool !== key.tool || r.argsHash !== key.argsHash)
          return 'more';
        // A connection line is written while the call runs: its outcome line, if any, comes after.
        if (r.phase === 'requested' || r.phase === 'connection') return 'more';
        if (r.phase === 'decision') found = r;
        settled = true;
        return 'stop';
      },
      { budgetBytes: BUDGET_BYTES },
    );
    if (settled) break;
  }
  return found;
}

/**
 * The outcome line that closes `decision`: the call was interrupted and what it did is unknown. The
 * decision line's place in the chain and its identity are its own (the writer gives this line theirs).
 */
export function interruptedOutcome(decision: AuditRecord, reason: string): Omit<AuditRecord, 'ts'> {
  const { ts: _ts, waitMs: _w, durationMs: _d, result: _r, seq: _s, prevHash: _p, ...kept } = decision;
  const { user: _u, host: _h, project: _pr, wardenVersion: _v, model: _m, ...rest } = kept;
  return { ...rest, phase: 'outcome', outcome: 'error', reason };
}
