/**
 * Pure editing logic of TextField: a value and a cursor, and what one Ink keypress does to them.
 * The cursor counts UTF-16 code units but never stops inside a surrogate pair, so an emoji moves
 * and erases as one character.
 */
import type { Key } from 'ink';

export type FieldState = { value: string; cursor: number };

/** What a keypress means to the field: a new state, a submit of the state's value, or nothing. */
export type FieldResult =
  | { kind: 'edit'; state: FieldState }
  | { kind: 'submit'; state: FieldState }
  | { kind: 'ignore' };

/** A field holding `value` with the cursor at its end (how an outside value arrives). */
export function fieldAt(value: string): FieldState {
  return { value, cursor: value.length };
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

function previous(value: string, cursor: number): number {
  if (cursor <= 0) return 0;
  const pair = cursor >= 2 && isLow(value.charCodeAt(cursor - 1)) && isHigh(value.charCodeAt(cursor - 2));
  return cursor - (pair ? 2 : 1);
}

function next(value: string, cursor: number): number {
  if (cursor >= value.length) return value.length;
  const pair = isHigh(value.charCodeAt(cursor)) && isLow(value.charCodeAt(cursor + 1));
  return cursor + (pair ? 2 : 1);
}

/** The character under the cursor (a whole surrogate pair), or '' at the end. */
export function charAt(state: FieldState): string {
  return state.value.slice(state.cursor, next(state.value, state.cursor));
}

function insert({ value, cursor }: FieldState, text: string): FieldState {
  return { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length };
}

function deleteBack(state: FieldState): FieldState {
  const from = previous(state.value, state.cursor);
  return { value: state.value.slice(0, from) + state.value.slice(state.cursor), cursor: from };
}

/** Ctrl+W (and Alt+Backspace) as in readline: the whitespace before the cursor, then the word. */
function deleteWordBack({ value, cursor }: FieldState): FieldState {
  let from = cursor;
  while (from > 0 && /\s/.test(value.charAt(from - 1))) from--;
  while (from > 0 && !/\s/.test(value.charAt(from - 1))) from--;
  return { value: value.slice(0, from) + value.slice(cursor), cursor: from };
}

/** One step of a chunk of typed input: text to insert, or one erase to the left. */
export type TypedPiece = { kind: 'text'; text: string } | { kind: 'erase' };

/**
 * A chunk of input as typed, in order: DEL and BS erase (fast typing, or several Backspaces, can
 * arrive in one read, which Ink then reports as text), "\n" and "\t" are text, and other control
 * characters are dropped so they never reach the screen. Every editor reads chunks through this.
 */
export function typedPieces(chunk: string): TypedPiece[] {
  const out: TypedPiece[] = [];
  let pending = '';
  for (const char of chunk) {
    if (char === '\u007f' || char === '\b') {
      if (pending) out.push({ kind: 'text', text: pending });
      pending = '';
      out.push({ kind: 'erase' });
    } else if (char === '\n' || char === '\t' || char >= ' ') pending += char;
  }
  if (pending) out.push({ kind: 'text', text: pending });
  return out;
}

/** Applies a chunk of text as typed (see `typedPieces`). */
export function typeChunk(state: FieldState, chunk: string): FieldState {
  let current = state;
  for (const piece of typedPieces(chunk))
    current = piece.kind === 'erase' ? deleteBack(current) : insert(current, piece.text);
  return current;
}

const edit = (state: FieldState): FieldResult => ({ kind: 'edit', state });

/**
 * One Ink keypress. Ink 6.8 reports the Backspace key ("\x7f") as `key.delete`, Ctrl+H ("\b") as
 * `key.backspace`, and the forward-Delete key ("\x1b[3~") as `key.delete` too, indistinguishable
 * from Backspace; so all of them erase to the left, as in ink-text-input (with Alt, a word).
 * ↑/↓, Tab, Esc, Page keys and Ctrl/Alt chords other than the editing ones are ignored: left to
 * other handlers, never typed. A chunk of several characters ending in its only line break is
 * text and Enter together (a fast terminal or a script) and submits; other line breaks in a chunk
 * (a paste) are kept as "\n", and so is a lone "\n" (Ctrl+J).
 */
export function fieldKey(state: FieldState, input: string, key: Key): FieldResult {
  const { value, cursor } = state;
  if (key.return) return { kind: 'submit', state };
  if (key.upArrow || key.downArrow || key.tab || key.escape || key.pageUp || key.pageDown)
    return { kind: 'ignore' };
  if (key.leftArrow) return edit({ value, cursor: previous(value, cursor) });
  if (key.rightArrow) return edit({ value, cursor: next(value, cursor) });
  if (key.home) return edit({ value, cursor: 0 });
  if (key.end) return edit(fieldAt(value));
  if (key.backspace || key.delete) return edit(key.meta ? deleteWordBack(state) : deleteBack(state));
  if (key.ctrl) {
    if (input === 'a') return edit({ value, cursor: 0 });
    if (input === 'e') return edit(fieldAt(value));
    if (input === 'u') return edit({ value: value.slice(cursor), cursor: 0 });
    if (input === 'w') return edit(deleteWordBack(state));
    return { kind: 'ignore' };
  }
  if (key.meta || input === '') return { kind: 'ignore' };
  const text = input.replace(/\r\n?/g, '\n');
  if (input.length > 1 && text.indexOf('\n') === text.length - 1)
    return { kind: 'submit', state: typeChunk(state, text.slice(0, -1)) };
  return edit(typeChunk(state, text));
}
