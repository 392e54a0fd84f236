import type { ToolOutputTail } from '../protocol';

/** Lines a tail keeps (the card shows them, with "+N lines" above). */
export const TAIL_LINES = 5;
/** Characters kept of one line; a line longer than a screen is cut at its end on the card anyway. */
const LINE_MAX = 2000;

/**
 * A running call's live output, folded line by line: the last complete lines, the line still being
 * printed, and how many lines there were. A CR returns to the start of the line, so the next text
 * replaces it (progress bars). Bounded: at most TAIL_LINES lines of LINE_MAX characters.
 */
export type TailState = { done: string[]; current: string; total: number; cr: boolean };

export const emptyTail = (): TailState => ({ done: [], current: '', total: 0, cr: false });

/** `state` after `chunk` (sanitised, LF line ends, lone CRs); `skipped` lines were left out before it. */
export function foldTail(state: TailState, chunk: string, skipped = 0): TailState {
  let done = [...state.done];
  let { current, total, cr } = state;
  if (skipped > 0) {
    // The lines shown so far are not next to what follows the gap: start afresh, counting what was left out.
    done = [];
    total += skipped;
    current = '';
    cr = false;
  }
  for (const part of chunk.split(/(\r|\n)/)) {
    if (part === '\n') {
      done.push(current);
      total += 1;
      current = '';
      cr = false;
    } else if (part === '\r') cr = true;
    else if (part !== '') {
      current = (cr ? part : current + part).slice(0, LINE_MAX);
      cr = false;
    }
    if (done.length > TAIL_LINES) done.splice(0, done.length - TAIL_LINES);
  }
  return { done, current, total, cr };
}

/** What a card shows of a tail: its last lines (the unfinished one included) and the count of all. */
export function publishTail(state: TailState): ToolOutputTail {
  const lines = state.current === '' ? state.done : [...state.done, state.current];
  const shown = lines.slice(-TAIL_LINES);
  return { lines: shown, total: state.total + (state.current === '' ? 0 : 1) };
}
