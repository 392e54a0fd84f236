/**
 * East Asian Wide and Fullwidth code points (and emoji presented wide) outside the CJK blocks
 * below: watches, zodiac and weather symbols, ✅ ❌ ⭐, vertical and small forms, Hangul Jamo
 * Extended-A, Tangut, Khitan, Nushu, kana supplements, Tai Xuan Jing, enclosed ideographs. Ink
 * measures each of them as two cells (string-width); counted as one here, a line this module fits
 * to a width was wider on screen, and Ink cut its end silently — an approval card then hid the
 * tail of the command that runs (`cat ✅✅… ~/.ssh/id_rsa` showed only the ticks). Sorted; a test
 * holds `charWidth` to at least string-width's answer for every code point.
 */
// biome-ignore format: a table, five ranges a line
const WIDE_EXTRA: readonly (readonly [number, number])[] = [
  [0x231a, 0x231b], [0x2329, 0x232a], [0x23e9, 0x23ec], [0x23f0, 0x23f0], [0x23f3, 0x23f3],
  [0x25fd, 0x25fe], [0x2614, 0x2615], [0x2630, 0x2637], [0x2648, 0x2653], [0x267f, 0x267f],
  [0x268a, 0x268f], [0x2693, 0x2693], [0x26a1, 0x26a1], [0x26aa, 0x26ab], [0x26bd, 0x26be],
  [0x26c4, 0x26c5], [0x26ce, 0x26ce], [0x26d4, 0x26d4], [0x26ea, 0x26ea], [0x26f2, 0x26f3],
  [0x26f5, 0x26f5], [0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b],
  [0x2728, 0x2728], [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757],
  [0x2795, 0x2797], [0x27b0, 0x27b0], [0x27bf, 0x27bf], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50],
  [0x2b55, 0x2b55], [0xa960, 0xa97c], [0xfe10, 0xfe19], [0xfe50, 0xfe6b], [0x16fe0, 0x16fe3],
  [0x16ff0, 0x16ff6], [0x17000, 0x191d2], [0x1aff0, 0x1affe], [0x1b000, 0x1b2fb], [0x1d300, 0x1d376],
  [0x1f004, 0x1f004], [0x1f0cf, 0x1f0cf], [0x1f18e, 0x1f18e], [0x1f191, 0x1f19a], [0x1f1ae, 0x1f1ae],
  [0x1f200, 0x1f265],
];

function inWideExtra(cp: number): boolean {
  let lo = 0;
  let hi = WIDE_EXTRA.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const range = WIDE_EXTRA[mid] as readonly [number, number];
    if (cp < range[0]) hi = mid - 1;
    else if (cp > range[1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Terminal cells a code point takes: 2 for East Asian wide and emoji, 0 for combining marks. */
export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x300) return 1;
  if (cp <= 0x36f) return 0;
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
  return cp >= 0x231a && inWideExtra(cp) ? 2 : 1;
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
