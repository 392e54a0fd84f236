// The bundle's string-width: the package's own function behind a bounded memo. Ink measures every
// line of every frame again (its width caches live for one frame), and a line holding one non-ASCII
// character (a box-drawing divider, a `·`) costs ~100 µs in the grapheme segmenter instead of ~1 µs;
// an unchanged row of the next frame is the same string, so it is measured once. Same results: a
// pure function of (text, options), memoised only for the default options.
import stringWidth from '../node_modules/string-width/index.js';

const MAX = 20_000;
let memo = new Map();

export default function cachedStringWidth(text, options) {
  if (options !== undefined || typeof text !== 'string' || text.length > 4096)
    return stringWidth(text, options);
  let width = memo.get(text);
  if (width === undefined) {
    width = stringWidth(text);
    // Bounded: past the limit the memo starts again rather than growing with a long session.
    if (memo.size >= MAX) memo = new Map();
    memo.set(text, width);
  }
  return width;
}
