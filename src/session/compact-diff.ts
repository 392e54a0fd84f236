/**
 * The folded diff an approved write keeps under its transcript card: a few hunks with one line of
 * context, each line cut to a bounded length around its change, the rest counted ("+N more"). Its
 * size is bounded whatever the file's, because the transcript keeps it for the whole session.
 */
import { structuredPatch } from 'diff';
import type { ToolDiff, ToolDiffLine } from '../protocol';

export type CompactLimits = { hunks: number; rows: number; lineChars: number };
const LIMITS: CompactLimits = { hunks: 3, rows: 12, lineChars: 240 };
/** A diff slower than this is summarised by its counts only. */
const TIMEOUT_MS = 500;

/** The compact diff of a write. Contract: never throws; a diff too slow to compute has counts and no hunks. */
export function compactDiff(
  path: string,
  before: string,
  after: string,
  isNew: boolean,
  limits: CompactLimits = LIMITS,
): ToolDiff {
  const lines = (t: string) => (t === '' ? 0 : t.split('\n').length - (t.endsWith('\n') ? 1 : 0));
  let patch: ReturnType<typeof structuredPatch> | undefined;
  try {
    patch = structuredPatch(path, path, isNew ? '' : before, after, undefined, undefined, {
      context: 1,
      ignoreNewlineAtEof: true,
      timeout: TIMEOUT_MS,
    } as Parameters<typeof structuredPatch>[6]);
  } catch {
    patch = undefined;
  }
  if (!patch)
    return { path, isNew, added: lines(after), removed: isNew ? 0 : lines(before), hunks: [], more: 0 };
  const hunks: ToolDiff['hunks'] = [];
  let added = 0;
  let removed = 0;
  let shownChanges = 0;
  let rows = 0;
  let prevEnd = 1;
  for (const h of patch.hunks) {
    const body = h.lines.filter((l) => !l.startsWith('\\'));
    const changes = body.filter((l) => l[0] === '+' || l[0] === '-');
    added += changes.filter((l) => l[0] === '+').length;
    removed += changes.filter((l) => l[0] === '-').length;
    if (hunks.length >= limits.hunks || rows >= limits.rows) continue;
    const out: ToolDiffLine[] = [];
    let o = h.oldStart;
    let n = h.newStart;
    for (let i = 0; i < body.length && rows < limits.rows; i++) {
      const l = body[i] ?? ' ';
      const sign = l[0] === '-' ? '-' : l[0] === '+' ? '+' : ' ';
      const text = l.slice(1).replace(/\r$/, '');
      // A changed line is cut around where it differs from its pair, so the cut keeps the change.
      const pair =
        sign === '-'
          ? body.find((x, k) => k > i && x[0] === '+')
          : sign === '+'
            ? [...body.slice(0, i)].reverse().find((x) => x[0] === '-')
            : undefined;
      out.push({ sign, no: sign === '-' ? o : n, text: clip(text, pair?.slice(1), limits.lineChars) });
      if (sign !== ' ') shownChanges++;
      if (sign !== '+') o++;
      if (sign !== '-') n++;
      rows++;
    }
    hunks.push({ skipped: Math.max(0, h.newStart - prevEnd), lines: out });
    prevEnd = h.newStart + h.newLines;
  }
  return { path, isNew, added, removed, hunks, more: Math.max(0, added + removed - shownChanges) };
}

/** At most `max` characters of `text`, starting a little before where it first differs from `pair`. */
export function clip(text: string, pair: string | undefined, max: number): string {
  if (text.length <= max) return text;
  let p = 0;
  if (pair !== undefined) while (p < text.length && p < pair.length && text[p] === pair[p]) p++;
  const start = p > max / 2 ? p - 20 : 0;
  const body = text.slice(start, start + max);
  return `${start > 0 ? '…' : ''}${body}${start + max < text.length ? '…' : ''}`;
}
