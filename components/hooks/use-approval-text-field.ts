import type { Key } from 'ink';
import { useState } from 'react';
import { useApprovalInput } from './use-approval-input';

export type TextFieldState = { value: string; cursor: number };

/**
 * One line of text editing: typing and pasting insert (newlines become spaces), ←/→ move,
 * Backspace/Delete erase, Ctrl+A/Ctrl+E jump. Returns the new state, or undefined when the key
 * is not a text-editing key. Pure, for tests.
 */
export function textFieldKey(state: TextFieldState, input: string, key: Key): TextFieldState | undefined {
  const { value, cursor } = state;
  if (key.leftArrow) return { value, cursor: Math.max(0, cursor - 1) };
  if (key.rightArrow) return { value, cursor: Math.min(value.length, cursor + 1) };
  if (key.home || (key.ctrl && input === 'a')) return { value, cursor: 0 };
  if (key.end || (key.ctrl && input === 'e')) return { value, cursor: value.length };
  if (key.backspace || key.delete) {
    if (cursor === 0) return state;
    return { value: value.slice(0, cursor - 1) + value.slice(cursor), cursor: cursor - 1 };
  }
  if (key.ctrl || key.meta || key.escape || key.return || key.tab || key.upArrow || key.downArrow) return undefined;
  if (key.pageUp || key.pageDown || input === '') return undefined;
  const text = input.replace(/\r\n|\r|\n/g, ' ');
  return { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length };
}

/**
 * A single-line text field for the drawer. Enter submits, Esc cancels; `onOtherKey` sees keys
 * the field does not use (↑/↓ between plan steps, for instance).
 */
export function useApprovalTextField(options: {
  isActive: boolean;
  initial?: string;
  onSubmit: (value: string) => void;
  onCancel: () => void;
  onOtherKey?: (input: string, key: Key, state: TextFieldState) => void;
}): TextFieldState & { set: (value: string) => void } {
  const initial = options.initial ?? '';
  const [state, setState] = useState<TextFieldState>({ value: initial, cursor: initial.length });
  useApprovalInput(
    (input, key) => {
      if (key.return) return options.onSubmit(state.value);
      if (key.escape) return options.onCancel();
      const next = textFieldKey(state, input, key);
      if (next) setState(next);
      else options.onOtherKey?.(input, key, state);
    },
    { isActive: options.isActive },
  );
  return { ...state, set: (value: string) => setState({ value, cursor: value.length }) };
}
