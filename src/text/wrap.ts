/**
 * Laying untrusted text out in a fixed number of terminal columns: tabs expanded, unsafe
 * characters made visible, lines padded or wrapped, so a layout never depends on what a file
 * contains.
 */
import { sanitizeText, visibleChar } from './sanitize';
import { truncateCells } from './truncate';
import { charWidth, textWidth } from './width';

const TAB_STOP = 4;

/** Expands tabs to the next tab stop (columns counted in terminal cells). */
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

/**
 * A name on one line with nothing hidden: a file name may hold line breaks and tabs, and there they
 * are part of the name — shown as their control pictures (`␊`, `␉`), never as a break that draws a
 * line of its own or as a space that names another file. Every other unsafe character as `displayLine`.
 */
export function nameLine(text: string): string {
  return sanitizeText(text.replace(/[\n\t]/g, visibleChar), 'exact');
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
