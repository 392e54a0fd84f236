import { redact } from './redact';
import type { AuditRecord } from '../protocol/audit';

/**
 * The most a line may hold. Each string is cut at `maxStringLength`, but arguments with thousands of
 * strings or keys (an MCP call's array) are not: one denied call wrote a 33 MB line, and a model
 * looping on denied calls filled the disk with no person asked (red-team finding).
 */
export const MAX_LINE_CHARS = 256 * 1024;
/** What a bounded line keeps of each of args, editedArgs and result (their redacted JSON, cut). */
const BOUNDED_FIELD_CHARS = 16 * 1024;

/**
 * A record whose line would be over MAX_LINE_CHARS, with its args, editedArgs and result replaced by
 * the start of their redacted JSON text and how much was dropped (`argsHash` still names the call).
 */
export function boundLine(record: AuditRecord): { value: AuditRecord; json: string } {
  const cut = (v: unknown): unknown => {
    if (v === undefined) return v;
    const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
    if (text.length <= BOUNDED_FIELD_CHARS) return v;
    return `${text.slice(0, BOUNDED_FIELD_CHARS)}…[${text.length - BOUNDED_FIELD_CHARS} more chars]`;
  };
  const value: AuditRecord = { ...record, args: cut(record.args) };
  if (record.editedArgs !== undefined) value.editedArgs = cut(record.editedArgs);
  if (record.result !== undefined) value.result = cut(record.result) as string;
  let json = JSON.stringify(value);
  // Only hostile text gets here (a huge reason, rule or tool name): every string is cut hard.
  if (json.length > MAX_LINE_CHARS) {
    const hard = redact(value, { maxStringLength: 1024 }) as AuditRecord;
    return { value: hard, json: JSON.stringify(hard) };
  }
  return { value, json };
}
