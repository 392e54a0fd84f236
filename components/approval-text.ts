/**
 * Text helpers for the approval drawer: make untrusted text safe to print, measure it, and fit it
 * into a fixed number of columns so the drawer's layout never depends on what a file contains.
 */
import { sanitizeSameLength, sanitizeText } from '../src/text/sanitize';

const TAB_STOP = 4;

/**
 * Replaces control, bidi and invisible characters with visible stand-ins, one code unit for one
 * (a text field's cursor offsets hold). File contents and commands come from the model, so an
 * escape sequence printed raw could repaint the screen and hide what is approved.
 */
export function sanitize(text: string): string {
  return sanitizeSameLength(text);
}

/** Expands tabs to the next tab stop (columns counted in code points). */
export function expandTabs(text: string, tabStop = TAB_STOP): string {
  if (!text.includes('\t')) return text;
  let out = '';
  let col = 0;
  for (const ch of text) {
    if (ch === '\t') {
      const pad = tabStop - (col % tabStop);
      out += ' '.repeat(pad);
      col += pad;
    } else {
      out += ch;
      col += charWidth(ch);
    }
  }
  return out;
}

/** One display line: tabs expanded, newlines turned to spaces, every unsafe character shown (`⟨U+202E⟩`, `␛`). */
export function displayLine(text: string): string {
  return sanitizeText(expandTabs(text.replace(/\r?\n/g, ' ')), 'exact');
}

/** Terminal cells a code point takes: 2 for East Asian wide and emoji, 0 for combining marks. */
export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp >= 0x300 && cp <= 0x36f) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** Display width of a string in terminal cells. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
}

/** The longest prefix of `text` that fits in `width` cells. */
export function takeWidth(text: string, width: number): string {
  let out = '';
  let w = 0;
  for (const ch of text) {
    const cw = charWidth(ch);
    if (w + cw > width) break;
    out += ch;
    w += cw;
  }
  return out;
}

/** Cuts `text` to at most `width` cells, ending in an ellipsis when something was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length <= width && textWidth(text) <= width) return text;
  if (textWidth(text) <= width) return text;
  return `${takeWidth(text, width - 1)}…`;
}

/** Pads with spaces to exactly `width` cells (after truncating). */
export function fit(text: string, width: number): string {
  const cut = truncate(text, width);
  return cut + ' '.repeat(Math.max(0, width - textWidth(cut)));
}

/**
 * Wraps text into lines of at most `width` cells, breaking at spaces where it can and inside a
 * word only when the word is wider than a line. With `maxLines`, the last kept line ends in an
 * ellipsis when text was left out, so a reader knows there is more.
 */
export function wrap(text: string, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    let line = '';
    let lw = 0;
    for (const word of displayLine(raw).split(/(?<= )/)) {
      const ww = textWidth(word);
      if (lw + ww > w && lw > 0 && ww <= w) {
        lines.push(line.trimEnd());
        line = '';
        lw = 0;
      }
      for (const ch of word) {
        const cw = charWidth(ch);
        if (lw + cw > w) {
          lines.push(line);
          line = '';
          lw = 0;
        }
        line += ch;
        lw += cw;
      }
    }
    lines.push(line);
  }
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, Math.max(0, maxLines));
  const last = kept.length - 1;
  if (last >= 0) kept[last] = truncate(`${kept[last]}…`, w);
  return kept;
}

/** "12s", "3m", "2h" — how long ago `iso` was, at `nowMs`. */
export function formatAge(iso: string, nowMs: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '?';
  return formatDuration(nowMs - then);
}

/** A duration in the largest whole unit, never negative. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h`;
}

/** Compact JSON for one line; never throws (cycles and BigInt fall back to String). */
export function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Pretty JSON for the editor and the JSON preview; never throws. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
