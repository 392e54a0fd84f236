/**
 * What a recorded call acted on, in one line: its path, command, URL or query — the
 * audit list's and the sidebar's "what" column — else its first plain argument.
 */
import type { AuditRecord } from '../../src/protocol/audit';
import { callLine } from '../../src/text/call-line';
import { oneLine } from '../look/format';

const FIELDS = ['command', 'path', 'url', 'query', 'pattern', 'question', 'title', 'needs'] as const;

/** The path, command, URL or query of a record's call (the edited arguments when the person edited them). */
export function auditWhat(record: Pick<AuditRecord, 'args' | 'editedArgs'>): string {
  const args = (record.editedArgs ?? record.args) as Record<string, unknown> | null | undefined;
  if (args && typeof args === 'object')
    for (const field of FIELDS) {
      const value = args[field];
      if (typeof value === 'string' && value.trim() !== '') return oneLine(value);
    }
  return oneLine(callLine(args));
}
