// The bundle's @alcalzone/ansi-tokenize: the package's own functions, the two Ink calls on every
// line of every frame (`styledCharsFromTokens(tokenize(line))`) behind a memo. Ink turns each line
// into styled characters again each frame (its caches live for one frame), through a grapheme
// segmenter: a quarter of a diff card's key. An unchanged line of the next frame is the same string,
// so it is tokenized once. Same results: both are pure functions of their input, and Ink only reads
// what they return (output.js places the characters in its grid and prints them; it never writes to
// them), so a result may be handed out again.
import {
  styledCharsFromTokens as charsOf,
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
