/**
 * What a person's edit of a call changed, in words both the card and the model read:
 * one line per changed argument; a long or multi-line text (a file's content) is described by the
 * lines that differ, never repeated whole, so the model keeps the person's version without the
 * request growing by a file.
 */
import { diffLines } from 'diff';
import type { ToolResultEnvelope } from '../protocol';
import { canonicalJson } from '../text/canonical-json';
import { sanitizeText } from '../text/sanitize';
import { truncateChars } from '../text/truncate';

/** A text longer than this (or with a line break) is described by its changed lines. */
const SHORT_TEXT = 160;
/** Changed lines quoted per argument, and characters per quoted line. */
const QUOTED_LINES = 12;
const QUOTED_CHARS = 160;
/** A string in the arguments handed back to the model is cut to this (its change is in `changes`). */
const RETURNED_CHARS = 400;

const NOTE =
  'The person edited your call before approving it; the edited version ran. Keep their change: do not undo it or send your version again.';

/** One line per argument that differs between what the model proposed and what the person approved. */
export function describeChanges(proposed: unknown, final: unknown): string[] {
  const before = leaves(proposed);
  const after = leaves(final);
  const out: string[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key);
    const b = after.get(key);
    if (canonicalJson(a) === canonicalJson(b)) continue;
    if (typeof a === 'string' && typeof b === 'string' && (isLong(a) || isLong(b)))
      out.push(textChange(key, a, b));
    else out.push(`${key}: ${shown(a)} → ${shown(b)}`);
  }
  return out;
}

/** The `edited` part of the result the model gets after a person's edit ran (or failed). */
export function editedResult(final: unknown, changes: string[]): NonNullable<ToolResultEnvelope['edited']> {
  return { by: 'user', note: NOTE, args: shortened(final), changes };
}

const isLong = (text: string): boolean => text.length > SHORT_TEXT || text.includes('\n');

function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  return truncateChars(sanitizeText(JSON.stringify(value) ?? String(value)), SHORT_TEXT);
}

/** "content: lines 12–14 differ (+2 −1)" and the differing lines, `-` the model's, `+` the person's. */
function textChange(key: string, a: string, b: string): string {
  const parts = diffLines(a, b, { timeout: 1000 });
  if (!parts) return `${key}: the person's text differs throughout (${lineCount(a)} → ${lineCount(b)} lines)`;
  let line = 1;
  let added = 0;
  let removed = 0;
  let first: number | undefined;
  let last = 0;
  const quoted: string[] = [];
  for (const part of parts) {
    if (!part.added && !part.removed) {
      line += part.count;
      continue;
    }
    first ??= line;
    last = Math.max(last, line + (part.added ? part.count - 1 : 0));
    if (part.added) {
      added += part.count;
      line += part.count;
    } else removed += part.count;
    for (const text of part.value.replace(/\n$/, '').split('\n')) {
      if (quoted.length < QUOTED_LINES)
        quoted.push(`${part.added ? '+' : '-'} ${truncateChars(sanitizeText(text), QUOTED_CHARS)}`);
    }
  }
  const where = first === undefined ? '' : first >= last ? ` at line ${first}` : ` at lines ${first}–${last}`;
  const more = added + removed > quoted.length ? `\n  … ${added + removed - quoted.length} more lines` : '';
  return `${key}: the person's version differs${where} (+${added} −${removed}):\n  ${quoted.join('\n  ')}${more}`;
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length;
}

/** Leaf values by path (`edits[0].new_string`); an empty object or array is a leaf of its own. */
function leaves(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(value) && value.length > 0) {
    value.forEach((v, i) => leaves(v, `${path}[${i}]`, out));
  } else if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) leaves(v, path ? `${path}.${k}` : k, out);
  } else out.set(path || '(arguments)', value);
  return out;
}

/** The arguments with each long string cut (the model has `changes` for what the person changed). */
function shortened(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length > RETURNED_CHARS
      ? `${value.slice(0, RETURNED_CHARS)}… [${value.length} characters in all; see changes]`
      : value;
  if (Array.isArray(value)) return value.map(shortened);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortened(v)]));
  return value;
}
