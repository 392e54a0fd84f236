import { type Key, Text } from 'ink';
import type { ReactNode } from 'react';
import { sanitizeSameLength } from '../../src/text/sanitize';
import { useDrawNow } from '../look/use-draw-now';
import { useTextField } from './use-text-field';
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
  /**
   * Keys the field leaves alone (↑/↓, Tab, Esc, chords), in order with its edits: keys after one
   * wait for the next commit, so they see what this key changed.
   */
  onKey?: (input: string, key: Key) => void;
  /** Asked before each key; a refused key is dropped. The approval drawer passes its grace window. */
  gate?: () => boolean;
};

/**
 * A text field that never loses a key, however fast keys arrive: editing runs on a ref inside
 * useTextField (ink-text-input computed from its props and dropped edits). A `value` set from
 * outside (history, completion, clearing after submit) replaces the text, cursor at the end.
 * Line breaks of a pasted value show as breaks; other control characters of an outside value (a
 * plan step the model wrote) show as visible stand-ins, never raw. Nothing is coloured: the cursor
 * is inverse video and the placeholder dim, attributes that NO_COLOR leaves alone, so no theme
 * colour is needed.
 */
export function TextField({
  value,
  onChange,
  onSubmit,
  isActive,
  placeholder,
  onKey,
  gate,
}: Props): ReactNode {
  const state = useTextField({ value, onChange, onSubmit, isActive, onKey, gate });
  // The echo of a key is drawn at once: a key typed within Ink's frame window of the last one
  // (fast typing) waited up to 33 ms for its frame (every second key of back-to-back typing, measured).
  useDrawNow(`${state.cursor}:${state.value}`);
  if (state.value === '' && placeholder) {
    if (!isActive) return <Text dimColor>{placeholder}</Text>;
    return (
      <Text>
        <Text inverse>{placeholder.slice(0, 1)}</Text>
        <Text dimColor>{placeholder.slice(1)}</Text>
      </Text>
    );
  }
  // sanitizeSameLength keeps "\n" and "\t" and swaps one code unit for one, so the cursor's offsets hold.
  if (!isActive) return <Text>{sanitizeSameLength(state.value)}</Text>;
  const at = charAt(state);
  // At the end, or on a line break, the cursor is a block after the text rather than the break.
  const block = at === '' || at === '\n' ? ' ' : at;
  const after = state.value.slice(state.cursor + (at === '\n' ? 0 : at.length));
  return (
    <Text>
      {sanitizeSameLength(state.value.slice(0, state.cursor))}
      <Text inverse>{sanitizeSameLength(block)}</Text>
      {sanitizeSameLength(after)}
    </Text>
  );
}
