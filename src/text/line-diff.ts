/**
 * The line diff of the diff card and the transcript's compact diff: Myers' O((N+M)·D) algorithm,
 * after the common head and tail are cut off. Hand-made on purpose (jsdiff's `diffLines` stays the
 * fallback): it answers in the blocks both callers need, and it compares the lines themselves while
 * that stays cheap — numbering 40,000 lines by content in a Map cost more than the whole diff of a
 * 20,000-line file with 50 edits (bench/diff.bench.ts). Lines that are long on average, or a diff
 * whose comparisons pass a budget, are numbered by content first (each comparison then costs one
 * integer test). Memory is O(D²).
 */

/** A run of lines: the same on both sides, or removed / added (a change is its removed run, then its added run). */
export type LineBlock = { kind: 'same' | 'removed' | 'added'; count: number };

/** Past this many differences the trace (O(D²) numbers) grows too large: the caller falls back. */
const MAX_D = 2000;
/** Above this mean length a line is numbered before comparing: one comparison may read it whole. */
const LONG_LINE = 256;

/** Tuning for tests: comparisons the string pass may make before the lines are numbered. */
export type LineDiffOptions = { compareBudget?: number };

/**
 * Blocks of a line diff of `a` → `b`, or undefined when it would pass `deadline` (a
 * `performance.now()` time) or MAX_D differences. Lines are compared exactly (a CR is part of a line).
 */
export function diffLineBlocks(
  a: readonly string[],
  b: readonly string[],
  deadline: number,
  options: LineDiffOptions = {},
): LineBlock[] | undefined {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf])
    suf++;
  const n = a.length - pre - suf;
  const m = b.length - pre - suf;
  const budget = options.compareBudget ?? 4 * (n + m) + 65_536;
  let ops =
    meanLength(a, pre, n) <= LONG_LINE && meanLength(b, pre, m) <= LONG_LINE
      ? myers(a, b, pre, n, m, deadline, budget)
      : OVER_BUDGET;
  if (ops === OVER_BUDGET) {
    const [A, B] = numbered(a, b, pre, n, m);
    ops = myers(A, B, 0, n, m, deadline, Number.POSITIVE_INFINITY);
  }
  if (!ops || ops === OVER_BUDGET) return undefined;
  const blocks: LineBlock[] = [];
  const push = (kind: LineBlock['kind'], count: number) => {
    if (count === 0) return;
    const last = blocks[blocks.length - 1];
    if (last && last.kind === kind) last.count += count;
    else blocks.push({ kind, count });
  };
  push('same', pre);
  // Each run of edits between equal lines becomes its removed lines, then its added lines.
  let removed = 0;
  let added = 0;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    if (op === SAME) {
      push('removed', removed);
      push('added', added);
      removed = 0;
      added = 0;
      push('same', 1);
    } else if (op === DEL) removed++;
    else added++;
  }
  push('removed', removed);
  push('added', added);
  push('same', suf);
  return blocks;
}

function meanLength(lines: readonly string[], from: number, count: number): number {
  let chars = 0;
  for (let i = from; i < from + count; i++) chars += (lines[i] as string).length;
  return count === 0 ? 0 : chars / count;
}

/** Lines [from, from+n) of `a` and [from, from+m) of `b`, numbered by content. */
function numbered(a: readonly string[], b: readonly string[], from: number, n: number, m: number) {
  const ids = new Map<string, number>();
  const number = (lines: readonly string[], count: number) => {
    const out = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      const line = lines[from + i] as string;
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  };
  return [number(a, n), number(b, m)] as const;
}

const SAME = 0;
const DEL = 1;
const INS = 2;
const OVER_BUDGET = 'over budget';

/**
 * The edit script of a[from, from+n) → b[from, from+m) (SAME / DEL / INS per step, in order), or
 * undefined past the deadline or MAX_D, or OVER_BUDGET after `budget` comparisons.
 */
function myers(
  a: ArrayLike<string | number>,
  b: ArrayLike<string | number>,
  from: number,
  n: number,
  m: number,
  deadline: number,
  budget: number,
): Uint8Array | undefined | typeof OVER_BUDGET {
  const max = Math.min(n + m, MAX_D);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let compares = 0;
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    if ((d & 31) === 31 && performance.now() > deadline) return undefined;
    if (compares > budget) return OVER_BUDGET;
    // v before round d, over the diagonals round d reads: [-d, d].
    trace.push(v.slice(off - d, off + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[off + k - 1] as number) < (v[off + k + 1] as number))
          ? (v[off + k + 1] as number)
          : (v[off + k - 1] as number) + 1;
      let y = x - k;
      const start = x;
      while (x < n && y < m && a[from + x] === b[from + y]) {
        x++;
        y++;
      }
      compares += x - start + 1;
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return undefined;
  const ops = new Uint8Array(n + m);
  let at = ops.length;
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d--) {
    const row = trace[d] as Int32Array;
    const at_ = (k: number) => row[k + d] as number;
    if (d === 0) {
      // Round 0 is the snake from (0, 0).
      while (x > 0 && y > 0) {
        ops[--at] = SAME;
        x--;
        y--;
      }
      break;
    }
    const k = x - y;
    const prevK = k === -d || (k !== d && at_(k - 1) < at_(k + 1)) ? k + 1 : k - 1;
    const prevX = at_(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops[--at] = SAME;
      x--;
      y--;
    }
    ops[--at] = x === prevX ? INS : DEL;
    x = prevX;
    y = prevY;
  }
  return ops.subarray(at);
}
