import type { AuditRecord } from '../../src/protocol/audit';
import type { Theme } from '../look/theme';

/** The word a row shows: the outcome, else `requested` for a queued request, else the decision. */
export function auditResultWord(r: AuditRecord): string {
  return r.outcome ?? (r.phase === 'requested' ? 'requested' : r.decision);
}

/** Color for an outcome or decision word; the word itself always carries the meaning. */
export function outcomeColor(result: string, theme: Theme): string | undefined {
  switch (result) {
    case 'executed':
    case 'allow':
      return theme.ok;
    case 'rejected':
    case 'blocked':
    case 'error':
    case 'deny':
      return theme.error;
    case 'timeout':
    case 'ask':
    case 'requested':
      return theme.warn;
    default:
      return undefined;
  }
}
