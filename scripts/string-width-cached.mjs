// The bundle's string-width: the package's own function behind a bounded memo. Ink measures every
// line of every frame again (its width caches live for one frame), and a line holding one non-ASCII
// character (a box-drawing divider, a `·`) costs ~100 µs in the grapheme segmenter instead of ~1 µs;
// an unchanged row of the next frame is the same string, so it is measured once. Same results: a
// pure function of (text, options), memoised only for the default options.
// A line made only of narrow single-code-unit characters (ASCII, Latin, the punctuation, arrows,
// box drawing and symbols a frame uses) and colour codes is counted without the segmenter,
// whose first emoji test compiles a \p{RGI_Emoji} regex (~30 ms of every start-up, profiled).
import stringWidth from '../node_modules/string-width/index.js';

/**
 * Code points that are one column wide alone and never join a neighbour into one grapheme (no
 * marks, joiners, variation selectors, controls, emoji presentation): a string of them is as wide
 * as it has code units. test/scripts/string-width-cached.test.ts derives the table again from
 * string-width and fails when they differ.
 */
export const NARROW_RANGES = [
  [0x20, 0x7e],
  [0xa0, 0xac],
  [0xae, 0x2ff],
  [0x2000, 0x200a],
  [0x2010, 0x2027],
  [0x202f, 0x205f],
  [0x2070, 0x2071],
  [0x2074, 0x208e],
  [0x2090, 0x209c],
  [0x20a0, 0x20c1],
  [0x2100, 0x218b],
  [0x2190, 0x2319],
  [0x231c, 0x2328],
  [0x232b, 0x23e8],
  [0x23ed, 0x23ef],
  [0x23f1, 0x23f2],
  [0x23f4, 0x2429],
  [0x2440, 0x244a],
  [0x2460, 0x25fc],
  [0x25ff, 0x2613],
  [0x2616, 0x262f],
  [0x2638, 0x2647],
  [0x2654, 0x267e],
  [0x2680, 0x2689],
  [0x2690, 0x2692],
  [0x2694, 0x26a0],
  [0x26a2, 0x26a9],
  [0x26ac, 0x26bc],
  [0x26bf, 0x26c3],
  [0x26c6, 0x26cd],
  [0x26cf, 0x26d3],
  [0x26d5, 0x26e9],
  [0x26eb, 0x26f1],
  [0x26f4, 0x26f4],
  [0x26f6, 0x26f9],
  [0x26fb, 0x26fc],
  [0x26fe, 0x2704],
  [0x2706, 0x2709],
  [0x270c, 0x2727],
  [0x2729, 0x274b],
  [0x274d, 0x274d],
  [0x274f, 0x2752],
  [0x2756, 0x2756],
  [0x2758, 0x2794],
  [0x2798, 0x27af],
  [0x27b1, 0x27be],
  [0x27c0, 0x2b1a],
  [0x2b1d, 0x2b4f],
  [0x2b51, 0x2b54],
  [0x2b56, 0x2b73],
  [0x2b76, 0x2bff],
];

const narrow = new Uint8Array(0x2c00);
for (const [from, to] of NARROW_RANGES) narrow.fill(1, from, to + 1);

/**
 * The width of a line of table characters and SGR colour codes (`ESC [ digits;… m`, which string-width
 * strips and so counts as nothing), or -1 when anything else is in it.
 */
function narrowWidth(text) {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x1b && text.charCodeAt(i + 1) === 0x5b) {
      let j = i + 2;
      for (let c = text.charCodeAt(j); (c >= 0x30 && c <= 0x39) || c === 0x3b; c = text.charCodeAt(++j));
      if (text.charCodeAt(j) !== 0x6d) return -1;
      i = j;
      continue;
    }
    if (code >= 0x2c00 || narrow[code] === 0) return -1;
    width++;
  }
  return width;
}

const MAX = 20_000;
let memo = new Map();

export default function cachedStringWidth(text, options) {
  if (options !== undefined || typeof text !== 'string' || text.length > 4096)
    return stringWidth(text, options);
  let width = memo.get(text);
  if (width === undefined) {
    width = narrowWidth(text);
    if (width < 0) width = stringWidth(text);
    // Bounded: past the limit the memo starts again rather than growing with a long session.
    if (memo.size >= MAX) memo = new Map();
    memo.set(text, width);
  }
  return width;
}
