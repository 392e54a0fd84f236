/**
 * One line of a diff as printable segments: the words a changed pair differs in, syntax tokens
 * merged in, and a window of the line cut to its column. The cut never hides a change: a line whose
 * change lies past the column edge is windowed around that change, and each cut end shows `…`.
 */
import { diffWordsWithSpace } from 'diff';
import type { TokenKind, TokenSegment } from '../../highlight/highlight';
import { charWidth, textWidth } from '../../../src/text/width';

/** A run of one line's text: `changed` when the other side of the pair lacks it. */
export type Segment = { text: string; changed: boolean; token?: TokenKind };

export type { TokenKind, TokenSegment } from '../../highlight/highlight';

/** The middle of a changed pair is word-diffed up to this many characters a side; beyond, it is all changed. */
const WORD_DIFF_LIMIT = 4000;
/** Cells of unchanged text kept left of a change when the line is windowed around it. */
const LEAD = 8;

const WORD = /[\p{L}\p{N}_]/u;
const ASCII = /^[\x20-\x7e]*$/;

/** Terminal cells of `text`; printable ASCII is counted by length (long minified lines stay cheap). */
export function cellWidth(text: string): number {
  return ASCII.test(text) ? text.length : textWidth(text);
}

/**
 * Word-level segments of a changed line pair: what each side has that the other lacks. The common
 * head and tail are cut off first (at word boundaries), so a rename at character 50,000 of a
 * minified line costs one pass over the line and the word diff sees only the middle.
 */
export function wordSegments(oldText: string, newText: string): { old: Segment[]; new: Segment[] } {
  const max = Math.min(oldText.length, newText.length);
  let p = 0;
  while (p < max && oldText.charCodeAt(p) === newText.charCodeAt(p)) p++;
  while (p > 0 && (WORD.test(oldText.charAt(p - 1)) || isHighSurrogate(oldText.charCodeAt(p - 1)))) p--;
  let s = 0;
  while (
    s < max - p &&
    oldText.charCodeAt(oldText.length - 1 - s) === newText.charCodeAt(newText.length - 1 - s)
  )
    s++;
  while (s > 0 && WORD.test(oldText.charAt(oldText.length - s))) s--;
  const head = oldText.slice(0, p);
  const tail = oldText.slice(oldText.length - s);
  const a = oldText.slice(p, oldText.length - s);
  const b = newText.slice(p, newText.length - s);
  const old: Segment[] = [];
  const neu: Segment[] = [];
  if (head) push(old, neu, { text: head, changed: false });
  if (a.length > WORD_DIFF_LIMIT || b.length > WORD_DIFF_LIMIT) {
    if (a) old.push({ text: a, changed: true });
    if (b) neu.push({ text: b, changed: true });
  } else {
    for (const c of diffWordsWithSpace(a, b)) {
      if (!c.added) old.push({ text: c.value, changed: c.removed });
      if (!c.removed) neu.push({ text: c.value, changed: c.added });
    }
  }
  if (tail) push(old, neu, { text: tail, changed: false });
  return { old, new: neu };
}

function push(a: Segment[], b: Segment[], s: Segment): void {
  a.push(s);
  b.push({ ...s });
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Splits diff segments at syntax token boundaries, so each piece carries both marks. */
export function mergeTokens(segments: Segment[], tokens: readonly TokenSegment[] | undefined): Segment[] {
  if (!tokens || tokens.length === 0) return segments;
  const out: Segment[] = [];
  let ti = 0;
  let tOff = 0;
  for (const seg of segments) {
    let rest = seg.text;
    while (rest.length > 0) {
      const tok = tokens[ti];
      if (!tok) {
        out.push({ text: rest, changed: seg.changed });
        break;
      }
      const left = tok.text.length - tOff;
      const take = Math.min(left, rest.length);
      const piece: Segment = { text: rest.slice(0, take), changed: seg.changed };
      if (tok.token) piece.token = tok.token;
      out.push(piece);
      rest = rest.slice(take);
      tOff += take;
      if (tOff >= tok.text.length) {
        ti++;
        tOff = 0;
      }
    }
  }
  return out;
}

/** Where each changed run starts and ends, in cells. */
function changedRanges(segments: readonly Segment[]): { ranges: [number, number][]; total: number } {
  const ranges: [number, number][] = [];
  let col = 0;
  for (const s of segments) {
    const w = cellWidth(s.text);
    if (s.changed && w > 0) {
      const last = ranges[ranges.length - 1];
      if (last && last[1] === col) last[1] = col + w;
      else ranges.push([col, col + w]);
    }
    col += w;
  }
  return { ranges, total: col };
}

/**
 * The first cell a column `width` wide shows of a line `total` cells long, scrolled to `shift`:
 * `shift` itself unless that would hide every change, then a little before the first change at or
 * after `shift` (or the last change before it). A change counts as shown when a few of its cells are.
 */
export function windowStart(
  ranges: readonly [number, number][],
  total: number,
  width: number,
  shift: number,
): number {
  if (total <= width && shift <= 0) return 0;
  const base = Math.max(0, Math.min(shift, Math.max(0, total - width + 1)));
  if (ranges.length === 0) return base;
  // Cells in view from `s`: one `…` on the right, and one on the left past the first cell.
  const end = (s: number) => s + (s === 0 ? width - 1 : width - 2);
  const shows = (s: number) => ranges.some(([a, b]) => a + Math.min(3, b - a) <= end(s) && b > s);
  if (shows(base)) return base;
  const target = ranges.find(([a]) => a >= base) ?? ranges[ranges.length - 1] ?? [0, 0];
  const start = Math.max(0, target[0] - Math.min(LEAD, Math.floor(width / 4)));
  return start <= 1 ? 0 : start;
}

/**
 * Cuts segments to exactly `width` cells starting at the window `windowStart` picks, `…` at each
 * cut end, padded with spaces. Wide characters split by a cut become spaces.
 */
export function windowSegments(segments: readonly Segment[], width: number, shift = 0): Segment[] {
  if (width <= 0) return [];
  const { ranges, total } = changedRanges(segments);
  const start = windowStart(ranges, total, width, shift);
  const out: Segment[] = [];
  let room = width;
  if (start > 0) {
    out.push({ text: '…', changed: false });
    room -= 1;
  }
  const cutEnd = total - start > room;
  if (cutEnd) room -= 1;
  let col = 0;
  let full = false;
  for (const s of segments) {
    if (full || room <= 0) break;
    const w = cellWidth(s.text);
    if (col + w <= start) {
      col += w;
      continue;
    }
    let text = '';
    if (ASCII.test(s.text)) {
      // One cell a character: slice instead of walking a long minified line.
      const from = Math.max(0, start - col);
      const take = Math.min(room, w - from);
      text = s.text.slice(from, from + take);
      room -= take;
      col += from + take;
      if (from + take < w) full = true;
    } else
      for (const ch of s.text) {
        const cw = charWidth(ch);
        if (col < start) {
          // A wide character cut by the window's left edge leaves a blank.
          const blank = Math.min(room, col + cw - start);
          if (blank > 0) {
            text += ' '.repeat(blank);
            room -= blank;
          }
          col += cw;
          continue;
        }
        if (cw > room) {
          full = true;
          break;
        }
        text += ch;
        room -= cw;
        col += cw;
      }
    if (text) out.push(s.token ? { text, changed: s.changed, token: s.token } : { text, changed: s.changed });
  }
  const used = out.reduce((n, s) => n + cellWidth(s.text), 0);
  const tail = cutEnd ? '…' : '';
  const pad = Math.max(0, width - used - tail.length);
  if (tail || pad > 0) out.push({ text: tail + ' '.repeat(pad), changed: false });
  return out;
}
