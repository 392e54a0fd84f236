/**
 * Pure state of the drawer's multi-line arguments editor: a list of lines and a cursor. Columns
 * count UTF-16 code units, which is exact for JSON's ASCII punctuation and close enough for text.
 */
import type { Key } from 'ink';
import { typedPieces } from '../../widgets/text-field-state';

export type ArgsEditorState = { lines: string[]; row: number; col: number };

/** An editor holding `text` with the cursor at the start. */
export function editorFromText(text: string): ArgsEditorState {
  return { lines: text.split(/\r?\n/), row: 0, col: 0 };
}

/** The edited text. */
export function editorText(state: ArgsEditorState): string {
  return state.lines.join('\n');
}

function insert(state: ArgsEditorState, text: string): ArgsEditorState {
  const { lines, row, col } = state;
  const current = lines[row] ?? '';
  const pieces = text.split(/\r\n|\r|\n/);
  const head = current.slice(0, col);
  const tail = current.slice(col);
  const last = pieces.length - 1;
  const added = pieces.map((p, i) => (i === 0 ? head : '') + p + (i === last ? tail : ''));
  const next = [...lines.slice(0, row), ...added, ...lines.slice(row + 1)];
  const newCol = last === 0 ? col + text.length : (pieces[last] ?? '').length;
  return { lines: next, row: row + last, col: newCol };
}

/** Applies one key; returns the same state for keys the editor does not use. */
export function editorKey(state: ArgsEditorState, input: string, key: Key): ArgsEditorState {
  const { lines, row, col } = state;
  const lineLen = (r: number) => (lines[r] ?? '').length;
  if (key.upArrow)
    return row === 0
      ? { ...state, col: 0 }
      : { ...state, row: row - 1, col: Math.min(col, lineLen(row - 1)) };
  if (key.downArrow) {
    if (row >= lines.length - 1) return { ...state, col: lineLen(row) };
    return { ...state, row: row + 1, col: Math.min(col, lineLen(row + 1)) };
  }
  if (key.leftArrow) {
    if (col > 0) return { ...state, col: col - 1 };
    return row > 0 ? { ...state, row: row - 1, col: lineLen(row - 1) } : state;
  }
  if (key.rightArrow) {
    if (col < lineLen(row)) return { ...state, col: col + 1 };
    return row < lines.length - 1 ? { ...state, row: row + 1, col: 0 } : state;
  }
  if (key.home || (key.ctrl && input === 'a')) return { ...state, col: 0 };
  if (key.end || (key.ctrl && input === 'e')) return { ...state, col: lineLen(row) };
  if (key.return) return insert(state, '\n');
  if (key.tab) return insert(state, '  ');
  if (key.backspace || key.delete) return eraseBack(state);
  if (key.ctrl || key.meta || key.escape || key.pageUp || key.pageDown || input === '') return state;
  // A chunk may hold several keys (three Backspaces in one read arrive as "\x7f\x7f\x7f"): as typed.
  let next = state;
  for (const piece of typedPieces(input))
    next = piece.kind === 'erase' ? eraseBack(next) : insert(next, piece.text);
  return next;
}

/** Backspace: the character left of the cursor, or the line break before the line. */
function eraseBack(state: ArgsEditorState): ArgsEditorState {
  const { lines, row, col } = state;
  if (col > 0) {
    const current = lines[row] ?? '';
    const next = [...lines];
    next[row] = current.slice(0, col - 1) + current.slice(col);
    return { lines: next, row, col: col - 1 };
  }
  if (row === 0) return state;
  const prevLen = (lines[row - 1] ?? '').length;
  const next = [
    ...lines.slice(0, row - 1),
    (lines[row - 1] ?? '') + (lines[row] ?? ''),
    ...lines.slice(row + 1),
  ];
  return { lines: next, row: row - 1, col: prevLen };
}

/** Reports the first JSON parse problem, or the parsed value. */
export function parseArgs(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
