// The bundle's @alcalzone/ansi-tokenize: the package's own functions, the two Ink calls on every
// line of every frame (`styledCharsFromTokens(tokenize(line))`) behind a memo. Ink turns each line
// into styled characters again each frame (its caches live for one frame), through a grapheme
// segmenter: a quarter of a diff card's key. An unchanged line of the next frame is the same string,
// so it is tokenized once. Same results: both are pure functions of their input, and Ink only reads
// what they return (output.js places the characters in its grid and prints them; it never writes to
// them), so a result may be handed out again. A new line of plain text, box drawing and styles is
// read without the segmenter (tokensOf below), with the package's tokens.
import isFullwidthCodePoint from 'is-fullwidth-code-point';
import {
  ansiCodesToString,
  styledCharsFromTokens as charsOf,
  diffAnsiCodes,
  tokenize as packageTokens,
} from '../node_modules/@alcalzone/ansi-tokenize/build/index.js';

export * from '../node_modules/@alcalzone/ansi-tokenize/build/index.js';

/** Lines kept per generation: a few frames' worth (a styled line may hold ~20 KB of objects). */
const GENERATION = 400;
let current = new Map();
let previous = new Map();
const chars = new WeakMap();

export function tokenize(str, endChar) {
  if (endChar !== undefined || typeof str !== 'string') return packageTokens(str, endChar);
  let tokens = current.get(str);
  if (tokens === undefined) {
    tokens = previous.get(str) ?? tokensOf(str);
    // Two generations: a line shown in the last few frames stays; older ones go with their generation.
    if (current.size >= GENERATION) {
      previous = current;
      current = new Map();
    }
    current.set(str, tokens);
  }
  return tokens;
}

/**
 * The package's tokenize walks every line through Intl.Segmenter (graphemes): ~220 µs for a 120-column
 * card line, ~20 ms for the first 40 lines of a process while V8 is cold (measured: the first command
 * card's frame). In a line made only of code units that are each a grapheme of their own — no
 * combining marks, joiners, variation selectors, surrogates or CR (below U+0300, and the punctuation,
 * arrows, technical signs, box drawing, shapes and dingbats ranges, which hold none of those) — the
 * segments are its code units, so the same loop over them gives the same tokens; every other line goes
 * to the package. The escape sequences are read as the package reads them (an SGR `ESC [ digits;… m`,
 * an OSC 8 link ending in BEL) and their tokens are the package's own.
 */
function tokensOf(str) {
  for (let i = 0; i < str.length; i++) if (!ownGrapheme(str.charCodeAt(i))) return packageTokens(str);
  const ret = [];
  for (let i = 0; i < str.length; i++) {
    const unit = str.charCodeAt(i);
    if (unit === 0x1b || unit === 0x9b) {
      const end = codeEnd(str, i);
      if (end !== -1) {
        for (const token of codeTokens(str.slice(i, end + 1))) ret.push(token);
        i = end;
        continue;
      }
    }
    ret.push({ type: 'char', value: str[i], fullWidth: isFullwidthCodePoint(unit) });
  }
  return ret;
}

/** Whether a code unit is a grapheme by itself whatever stands beside it (see tokensOf). */
function ownGrapheme(unit) {
  if (unit < 0x300) return unit !== 0x0d && unit !== 0x0a;
  return (
    (unit >= 0x2010 && unit <= 0x2027) ||
    (unit >= 0x2030 && unit <= 0x205e) ||
    (unit >= 0x2190 && unit <= 0x23ff) ||
    (unit >= 0x2500 && unit <= 0x27bf)
  );
}

/** Where the escape sequence at `at` ends (its last index) as the package reads it, or -1 for none. */
function codeEnd(str, at) {
  const next = str.charCodeAt(at + 1);
  if (next === 0x5d /* ] */) {
    if (str.charCodeAt(at + 2) !== 0x38 /* 8 */ || str.charCodeAt(at + 3) !== 0x3b /* ; */) return -1;
    const params = str.indexOf(';', at + 4);
    return params === -1 ? -1 : str.indexOf('\x07', params + 1);
  }
  if (next !== 0x5b /* [ */) return -1;
  for (let i = at + 2; i < str.length; i++) {
    const unit = str.charCodeAt(i);
    if (unit === 0x6d /* m */) return i;
    if (unit !== 0x3b && (unit < 0x30 || unit > 0x39)) return -1;
  }
  return -1;
}

/** The package's tokens for one escape sequence, each computed once (a frame repeats a few styles). */
const codes = new Map();
function codeTokens(code) {
  let tokens = codes.get(code);
  if (tokens === undefined) {
    tokens = packageTokens(code);
    if (codes.size < 1000) codes.set(code, tokens);
  }
  return tokens;
}

export function styledCharsFromTokens(tokens) {
  let styled = chars.get(tokens);
  if (styled === undefined) {
    styled = charsOf(tokens);
    chars.set(tokens, styled);
  }
  return styled;
}

/** Whether two reduced style lists hold the same codes in the same order (their diff is then empty). */
function sameStyles(a, b) {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The package's styledCharsToString, which Ink calls on every row of every frame: it diffs the
 * styles of each cell against the one before (three Sets and four arrays a cell, ~5,000 cells a
 * full-screen frame: ~10-40 ms of the first card's frame while V8 is cold, profiled). A cell styled
 * as the one before — blank cells, and every cell but the first of a run — has an empty diff, so
 * the diff is skipped there; elsewhere it is the package's own. Same string out.
 */
export function styledCharsToString(chars) {
  let ret = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    const before = i === 0 ? EMPTY : chars[i - 1].styles;
    if (!sameStyles(before, char.styles))
      ret += ansiCodesToString(i === 0 ? char.styles : diffAnsiCodes(before, char.styles));
    ret += char.value;
    // Reset the active styles at the end of the string.
    if (i === chars.length - 1 && char.styles.length > 0)
      ret += ansiCodesToString(diffAnsiCodes(char.styles, EMPTY));
  }
  return ret;
}
const EMPTY = [];
