import { useState } from 'react';
import { type ArgsEditorState, editorFromText, editorKey, editorText } from '../args-editor-state';
import { useApprovalInput } from './use-approval-input';

/**
 * The arguments editor's keys: Ctrl+S saves (the caller parses and decides), Esc cancels, every
 * other key edits. `error` is cleared by the next edit.
 */
export function useArgsEditor(options: {
  isActive: boolean;
  text: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}): ArgsEditorState {
  const [state, setState] = useState(() => editorFromText(options.text));
  useApprovalInput(
    (input, key) => {
      if (key.ctrl && input === 's') return options.onSave(editorText(state));
      if (key.escape) return options.onCancel();
      setState((s) => editorKey(s, input, key));
    },
    { isActive: options.isActive },
  );
  return state;
}
