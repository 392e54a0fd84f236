import { Text } from 'ink';
import type { ReactNode } from 'react';
import { useTextField } from './hooks/use-text-field';
import { charAt } from './text-field-state';

type Props = {
  value: string;
  /** Called with every edit, synchronously in its keypress. */
  onChange: (next: string) => void;
  /** Enter, or a chunk ending in a line break; gets the value as of that key. */
  onSubmit: (value: string) => void;
  isActive: boolean;
  /** Shown dim while the value is empty. */
  placeholder?: string;
};

/**
 * A text field that never loses a key, however fast keys arrive: editing runs on a ref inside
 * useTextField (ink-text-input computed from its props and dropped edits). A `value` set from
 * outside (history, completion, clearing after submit) replaces the text, cursor at the end.
 * Line breaks of a pasted value show as breaks. Nothing is coloured: the cursor is inverse video
 * and the placeholder dim, attributes that NO_COLOR leaves alone, so no theme colour is needed.
 */
export function TextField({ value, onChange, onSubmit, isActive, placeholder }: Props): ReactNode {
  const state = useTextField({ value, onChange, onSubmit, isActive });
  if (state.value === '' && placeholder) {
    if (!isActive) return <Text dimColor>{placeholder}</Text>;
    return (
      <Text>
        <Text inverse>{placeholder.slice(0, 1)}</Text>
        <Text dimColor>{placeholder.slice(1)}</Text>
      </Text>
    );
  }
  if (!isActive) return <Text>{state.value}</Text>;
  const at = charAt(state);
  // At the end, or on a line break, the cursor is a block after the text rather than the break.
  const block = at === '' || at === '\n' ? ' ' : at;
  const after = state.value.slice(state.cursor + (at === '\n' ? 0 : at.length));
  return (
    <Text>
      {state.value.slice(0, state.cursor)}
      <Text inverse>{block}</Text>
      {after}
    </Text>
  );
}
