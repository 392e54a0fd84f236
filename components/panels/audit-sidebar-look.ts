/** What the audit sidebar marks and what it says when it folds away. Pure. */
import type { ApprovalRequest } from '../../src/protocol';
import type { AuditRecord } from '../../src/protocol/audit';
import { SIDE_MIN_COLUMNS } from '../look/layout';

/** Marks a record that decided the same call a pending card asks about now (same tool and arguments). */
export function relatedToPending(
  pending: readonly ApprovalRequest[],
): ((r: AuditRecord) => boolean) | undefined {
  if (pending.length === 0) return undefined;
  const calls = new Set(pending.map((p) => `${p.tool}\u0000${p.argsHash}`));
  return (r) => calls.has(`${r.tool}\u0000${r.argsHash}`);
}

/** The one line the sidebar leaves when the terminal is too narrow for its column. */
export function sidebarFoldedLine(columns: number): string {
  return `audit sidebar folded away: it needs ${SIDE_MIN_COLUMNS} columns, this terminal has ${columns} (/audit opens the browser · Ctrl+T hides this line)`;
}
