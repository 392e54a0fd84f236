/**
 * Untrusted text made safe to print on a terminal. Model text, command output, file names, MCP
 * descriptions and audit records may carry escape sequences that set the clipboard (OSC 52), the
 * window title (OSC 0/2), disguise links (OSC 8), move the cursor or clear the screen (CSI), and
 * bidi or invisible characters that make a line read differently from what it is. None of them
 * reaches the terminal raw: each becomes a visible stand-in (`␛]52;c;…␇`, `⟨U+202E⟩`), so a
 * person sees that something was there. Colour (SGR) sequences are the one exception in
 * `display` mode: they only style text and are dropped.
 */
import ansiRegex from 'ansi-regex';

/**
 * `display`: colour sequences dropped, CRLF read as a line break, everything else visible.
 * `exact`: nothing dropped, every unsafe character visible (approval previews: a person must see
 * exactly the bytes a file will hold).
 */
export type SanitizeMode = 'display' | 'exact';

/**
 * Characters that never reach the terminal raw:
 * - C0 controls except TAB and LF, DEL, C1 controls (U+0080–U+009F; `\x9b` is an 8-bit CSI);
 * - bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the bidi marks
 *   LRM, RLM, ALM (U+200E, U+200F, U+061C): they reorder what a line shows ("Trojan Source");
 * - invisible characters that hide or smuggle text: zero width space, word joiner and invisible
 *   operators (U+200B, U+2060–U+2064), deprecated format controls (U+206A–U+206F), BOM (U+FEFF),
 *   soft hyphen (U+00AD), Mongolian vowel separator (U+180E), Hangul fillers (U+115F, U+1160,
 *   U+3164, U+FFA0), line and paragraph separators (U+2028, U+2029), interlinear annotation
 *   (U+FFF9–U+FFFB), the tag block (U+E0000–U+E007F, "ASCII smuggling"), and the other invisible
 *   format characters a command or path could hide in: combining grapheme joiner (U+034F), Khmer
 *   inherent vowels (U+17B4, U+17B5), shorthand format controls (U+1BCA0–U+1BCA3) and musical
 *   format controls (U+1D173–U+1D17A);
 * - a variation selector that cannot belong to the character before it: one right after another
 *   (no variation sequence has two), a supplement selector (U+E0100–U+E01EF, defined only for
 *   CJK ideographs) after anything else, and a selector after a Latin, Greek or Cyrillic character
 *   (U+0020–U+052F) other than a keycap's base or © ® with VS15/VS16 (`1️⃣`, `©️`) or the zero with a
 *   short stroke (`0` VS1) — one after each letter carried four hidden bits a letter. A run of them after one emoji is the "emoji smuggling"
 *   shape: 256 selectors encode any byte, so a card showed 😀 for a whole hidden prompt.
 * ZWJ and ZWNJ (U+200C, U+200D) and a variation selector after its base stay: emoji and scripts
 * need them.
 */
const VS = '[\\ufe00-\\ufe0f]|\\udb40[\\udd00-\\uddef]';
/** Latin, Greek and Cyrillic (printable): no selector belongs after them but a keycap's, ©/®'s and `0` VS1. */
const LETTER = '[\\x20-\\x7e\\xa0-\\u052f]';
/** CJK ideographs (BMP blocks, and planes 2–3 as surrogate pairs): the only bases of U+E0100–U+E01EF. */
const IDEOGRAPH = '[\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff]|[\\ud840-\\ud8bf][\\udc00-\\udfff]';
/** Exported for `safe-output`, whose JSON escaping must act on exactly the same characters. */
// Each alternative matches its selector first and looks back only then: a look-behind tried at
// every position made a scan of CJK text six times slower.
// A supplement selector after another selector is not after an ideograph: the second alternative.
export const STRAY_SELECTOR_SOURCE =
  `[\\ufe00-\\ufe0f](?<=(?:${VS}|${LETTER})[\\ufe00-\\ufe0f])(?<![0-9#*\\xa9\\xae][\\ufe0e\\ufe0f])(?<!0\\ufe00)|` +
  `\\udb40[\\udd00-\\uddef](?<!(?:${IDEOGRAPH})\\udb40[\\udd00-\\uddef])`;
const UNSAFE_SOURCE =
  '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180e\\u200b\\u200e\\u200f' +
  '\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb]' +
  '|\\udb40[\\udc00-\\udc7f]|\\ud82f[\\udca0-\\udca3]|\\ud834[\\udd73-\\udd7a]|' +
  STRAY_SELECTOR_SOURCE;

/** True when `text` holds anything `sanitizeText` would change (except colour in display mode). */
const UNSAFE_TEST = new RegExp(UNSAFE_SOURCE);
const UNSAFE_ALL = new RegExp(UNSAFE_SOURCE, 'g');
const ANSI = ansiRegex();
/** SGR: CSI (7- or 8-bit) with parameter bytes only, ending in `m`. */
const SGR = /^(?:\u001b\[|\u009b)[\d;:]*m$/;

/** Stand-ins already made; the set of unsafe characters is small and fixed. */
const STAND_INS = new Map<string, string>();

/** The visible stand-in of one unsafe character (a code point, possibly two code units). */
export function visibleChar(ch: string): string {
  let out = STAND_INS.get(ch);
  if (out === undefined) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20) out = String.fromCharCode(0x2400 + code);
    else if (code === 0x7f) out = '\u2421';
    else out = `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
    STAND_INS.set(ch, out);
  }
  return out;
}

/** True when printing `text` raw could drive the terminal or hide what it says. */
export function hasUnsafeText(text: string): boolean {
  return UNSAFE_TEST.test(text);
}

/**
 * `text` safe to print: escape sequences, control, bidi and invisible characters shown as
 * visible stand-ins; in `display` mode colour sequences are dropped and CRLF becomes LF.
 * TAB and LF stay. Idempotent: its output holds nothing it would change again.
 * Contract: never throws; text without unsafe characters is returned as is (same string).
 */
export function sanitizeText(text: string, mode: SanitizeMode = 'display'): string {
  if (!UNSAFE_TEST.test(text)) return text;
  let out = text;
  if (mode === 'display') {
    out = out.replace(/\r\n/g, '\n');
    // The grammar finds whole sequences so colour is dropped without leaving its parameters behind.
    if (out.includes('\u001b') || out.includes('\u009b'))
      out = out.replace(ANSI, (seq) => (SGR.test(seq) ? '' : seq));
  }
  return out.replace(UNSAFE_ALL, visibleChar);
}

/**
 * One visible character for every unsafe code unit, so offsets into the text still hold (a text
 * field's cursor). Less informative than `sanitizeText`; use it only where length must not change.
 */
export function sanitizeSameLength(text: string): string {
  if (!UNSAFE_TEST.test(text)) return text;
  return text.replace(UNSAFE_ALL, (ch) => {
    const code = ch.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return ch.length === 2 ? '\ufffd\ufffd' : '\ufffd';
  });
}
