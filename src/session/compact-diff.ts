/**
 * The folded diff an approved write keeps under its transcript card: a few hunks with one line of
 * context, each line cut to a bounded length around its change, the rest counted ("+N more"). Its
 * size is bounded whatever the file's, because the transcript keeps it for the whole session.
 */
import type { ToolDiff, ToolDiffLine } from '../protocol';
import { diffLineBlocks, type LineBlock } from '../text/line-diff';
import { rawLines } from '../text/text-lines';

export type CompactLimits = { hunks: number; rows: number; lineChars: number };
const LIMITS: CompactLimits = { hunks: 3, rows: 12, lineChars: 240 };
/** A diff slower than this is summarised by its counts only. */
const TIMEOUT_MS = 500;
/** Unchanged lines shown around each change. */
const CONTEXT = 1;

/** A change: `removed` old lines from old index `o`, `added` new lines from new index `n` (0-based). */
type Change = { o: number; n: number; removed: number; added: number };

function changesOf(blocks: readonly LineBlock[]): Change[] {
  const out: Change[] = [];
  let o = 0;
  let n = 0;
  let open: Change | undefined;
  for (const b of blocks) {
    if (b.kind === 'same') {
      open = undefined;
      o += b.count;
      n += b.count;
      continue;
    }
    if (!open) {
      open = { o, n, removed: 0, added: 0 };
      out.push(open);
    }
    if (b.kind === 'removed') {
      open.removed += b.count;
      o += b.count;
    } else {
      open.added += b.count;
      n += b.count;
    }
  }
  return out;
}

/** The compact diff of a write. Contract: never throws; a diff too slow to compute has counts and no hunks. */
export function compactDiff(
  path: string,
  before: string,
  after: string,
  isNew: boolean,
  limits: CompactLimits = LIMITS,
): ToolDiff {
  const a = isNew ? [] : rawLines(before);
  const b = rawLines(after);
  const blocks = diffLineBlocks(a, b, performance.now() + TIMEOUT_MS);
  if (!blocks) return { path, isNew, added: b.length, removed: a.length, hunks: [], more: 0 };
  const changes = changesOf(blocks);
  const added = changes.reduce((sum, c) => sum + c.added, 0);
  const removed = changes.reduce((sum, c) => sum + c.removed, 0);
  const hunks: ToolDiff['hunks'] = [];
  let rows = 0;
  let shown = 0;
  let prevEnd = 0;
  let i = 0;
  while (i < changes.length && hunks.length < limits.hunks && rows < limits.rows) {
    // Changes closer than two contexts share one hunk.
    let j = i;
    while (j + 1 < changes.length) {
      const cur = changes[j] as Change;
      const next = changes[j + 1] as Change;
      if (next.n - (cur.n + cur.added) > 2 * CONTEXT) break;
      j++;
    }
    const first = changes[i] as Change;
    const last = changes[j] as Change;
    const from = Math.max(0, first.n - CONTEXT);
    const to = Math.min(b.length, last.n + last.added + CONTEXT);
    const lines: ToolDiffLine[] = [];
    const push = (line: ToolDiffLine) => {
      if (rows >= limits.rows) return;
      lines.push(line);
      rows++;
      if (line.sign !== ' ') shown++;
    };
    let n = from;
    for (let k = i; k <= j; k++) {
      const c = changes[k] as Change;
      for (; n < c.n; n++)
        push({ sign: ' ', no: n + 1, text: clip(show(b[n]), undefined, limits.lineChars) });
      for (let r = 0; r < c.removed; r++)
        push({
          sign: '-',
          no: c.o + r + 1,
          text: clip(show(a[c.o + r]), pairOf(b, c.n, r, c.added), limits.lineChars),
        });
      for (let r = 0; r < c.added; r++)
        push({
          sign: '+',
          no: c.n + r + 1,
          text: clip(show(b[c.n + r]), pairOf(a, c.o, r, c.removed), limits.lineChars),
        });
      n = c.n + c.added;
    }
    for (; n < to; n++) push({ sign: ' ', no: n + 1, text: clip(show(b[n]), undefined, limits.lineChars) });
    hunks.push({ skipped: from - prevEnd, lines });
    prevEnd = to;
    i = j + 1;
  }
  return { path, isNew, added, removed, hunks, more: Math.max(0, added + removed - shown) };
}

/** The line a changed line replaces (same position in the other side's run), for cutting around the change. */
function pairOf(lines: readonly string[], start: number, r: number, count: number): string | undefined {
  return r < count ? show(lines[start + r]) : undefined;
}

function show(line: string | undefined): string {
  return (line ?? '').replace(/\r$/, '');
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
