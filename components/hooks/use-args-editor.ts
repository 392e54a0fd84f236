import { useRef, useState } from 'react';
import { type ArgsEditorState, editorFromText, editorKey, editorText } from '../args-editor-state';
import { useApprovalInput } from './use-approval-input';

/**
 * The arguments editor's keys: Ctrl+S saves (the caller parses and decides), Esc cancels, every
 * other key edits. The text lives in a ref that every key reads and writes, so a burst of keys
 * (an edit then Ctrl+S, with no render between) saves the latest text; state only mirrors it.
 */
export function useArgsEditor(options: {
  isActive: boolean;
  text: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}): ArgsEditorState {
  const [state, setState] = useState(() => editorFromText(options.text));
  // Seeded with the first state only; from then on every key writes it before the render shows it.
  const latest = useRef(state);
  useApprovalInput(
    (input, key) => {
      if (key.ctrl && input === 's') return options.onSave(editorText(latest.current));
      if (key.escape) return options.onCancel();
      latest.current = editorKey(latest.current, input, key);
      setState(latest.current);
    },
    { isActive: options.isActive },
  );
  return state;
}
