/**
 * Text helpers for the approval drawer: make untrusted text safe to print, measure it, and fit it
 * into a fixed number of columns so the drawer's layout never depends on what a file contains.
 */
import { sanitizeSameLength, sanitizeText } from '../src/text/sanitize';
import { truncateCells } from '../src/text/truncate';
import { charWidth, textWidth } from '../src/text/width';

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

/** Pads with spaces to exactly `width` cells (after truncating). */
export function fit(text: string, width: number): string {
  const cut = truncateCells(text, width);
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
  if (last >= 0) kept[last] = truncateCells(`${kept[last]}…`, w);
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
