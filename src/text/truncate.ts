/**
 * Two ways to cut a string with an ellipsis, named for what they count. `truncateCells` is for
 * anything laid out in a fixed number of terminal columns (wide characters take two);
 * `truncateChars` counts UTF-16 code units, for labels whose width is a budget, not a layout.
 */
import { takeWidth, textWidth } from './width';

/** Shortens to at most `max` UTF-16 code units, the last one `…` when something was cut. */
export function truncateChars(text: string, max: number): string {
  if (max <= 0) return '';
  if (text.length <= max) return text;
  return max === 1 ? '…' : `${text.slice(0, max - 1)}…`;
}

/** Cuts `text` to at most `width` terminal cells, ending in an ellipsis when something was cut. */
export function truncateCells(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length <= width && textWidth(text) <= width) return text;
  if (textWidth(text) <= width) return text;
  return `${takeWidth(text, width - 1)}…`;
}
