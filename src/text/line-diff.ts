/**
 * The line diff of the diff card and the transcript's compact diff: Myers' O((N+M)·D) algorithm on
 * lines numbered by content, in typed arrays, after the common head and tail are cut off. Hand-made
 * on purpose (jsdiff's `diffLines` stays the fallback): on a 20,000-line file with 50 edits it runs
 * in 70–120 ms on a cold start against jsdiff's 95–190 ms (the first card is always cold), on par
 * warm (bench/diff.bench.ts), and it answers in the blocks both callers need. Memory is O(D²).
 */

/** A run of lines: the same on both sides, or removed / added (a change is its removed run, then its added run). */
export type LineBlock = { kind: 'same' | 'removed' | 'added'; count: number };

/** Past this many differences the trace (O(D²) numbers) grows too large: the caller falls back. */
const MAX_D = 2000;

/**
 * Blocks of a line diff of `a` → `b`, or undefined when it would pass `deadline` (a
 * `performance.now()` time) or MAX_D differences. Lines are compared exactly (a CR is part of a line).
 */
export function diffLineBlocks(
  a: readonly string[],
  b: readonly string[],
  deadline: number,
): LineBlock[] | undefined {
  const ids = new Map<string, number>();
  const number = (lines: readonly string[]) => {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  };
  const A = number(a);
  const B = number(b);
  let pre = 0;
  while (pre < A.length && pre < B.length && A[pre] === B[pre]) pre++;
  let suf = 0;
  while (suf < A.length - pre && suf < B.length - pre && A[A.length - 1 - suf] === B[B.length - 1 - suf])
    suf++;
  const ops = myers(A.subarray(pre, A.length - suf), B.subarray(pre, B.length - suf), deadline);
  if (!ops) return undefined;
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

const SAME = 0;
const DEL = 1;
const INS = 2;

/** The edit script (SAME / DEL / INS per step, in order), or undefined past the deadline or MAX_D. */
function myers(a: Int32Array, b: Int32Array, deadline: number): Uint8Array | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_D);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    if ((d & 31) === 31 && performance.now() > deadline) return undefined;
    // v before round d, over the diagonals round d reads: [-d, d].
    trace.push(v.slice(off - d, off + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[off + k - 1] as number) < (v[off + k + 1] as number))
          ? (v[off + k + 1] as number)
          : (v[off + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
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
