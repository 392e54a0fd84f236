// The bundle's @alcalzone/ansi-tokenize: the package's own functions, the two Ink calls on every
// line of every frame (`styledCharsFromTokens(tokenize(line))`) behind a memo. Ink turns each line
// into styled characters again each frame (its caches live for one frame), through a grapheme
// segmenter: a quarter of a diff card's key. An unchanged line of the next frame is the same string,
// so it is tokenized once. Same results: both are pure functions of their input, and Ink only reads
// what they return (output.js places the characters in its grid and prints them; it never writes to
// them), so a result may be handed out again.
import {
  ansiCodesToString,
  styledCharsFromTokens as charsOf,
  diffAnsiCodes,
  tokenize as tokensOf,
} from '../node_modules/@alcalzone/ansi-tokenize/build/index.js';

export * from '../node_modules/@alcalzone/ansi-tokenize/build/index.js';

/** Lines kept per generation: a few frames' worth (a styled line may hold ~20 KB of objects). */
const GENERATION = 400;
let current = new Map();
let previous = new Map();
const chars = new WeakMap();

export function tokenize(str, endChar) {
  if (endChar !== undefined || typeof str !== 'string') return tokensOf(str, endChar);
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
