import type { Key } from 'ink';
import { useLayoutEffect, useRef, useState } from 'react';
import { type FieldState, fieldAt, fieldKey } from './text-field-state';
import { useKeys } from '../keys/use-keys';

type Options = {
  value: string;
  onChange: (next: string) => void;
  onSubmit: (value: string) => void;
  isActive: boolean;
  /** Keys the field leaves alone (↑/↓, Tab, Esc, chords), in order with its own edits. */
  onKey?: (input: string, key: Key) => void;
  /** Asked before each key; a refused key is dropped (the approval drawer's grace window). */
  gate?: () => boolean;
};

type HeldKey = { input: string; key: Key };

/**
 * The editing state behind TextField. The value and cursor live in a ref that every keypress
 * reads and writes synchronously: Ink delivers keys faster than React renders (a burst of keys
 * gets no render in between), so state only mirrors the ref for drawing. A `value` the parent sets
 * itself (recall, completion, clearing after a submit) replaces the ref at the next commit, cursor
 * at the end. Because the parent can only do that in answer to a key, keys arriving after a
 * submit or after a key the field leaves to others (↑, Tab, a chord; handed to `onKey` when
 * given) are held until that commit and then applied to whatever value the parent settled on, so
 * a parent that handles its keys in `onKey` sees them in order with the edits.
 * Contract: onChange runs once per key that changes the value; onSubmit gets the value as of its
 * key; keys held while the field turns inactive are dropped, never typed, and so are keys the
 * gate refuses (held keys passed it when they arrived).
 */
export function useTextField({ value, onChange, onSubmit, isActive, onKey, gate }: Options): FieldState {
  const field = useRef<FieldState>(fieldAt(value));
  const [shown, setShown] = useState<FieldState>(field.current);
  const held = useRef<HeldKey[] | undefined>(undefined);
  // Bumped to guarantee a commit (and so a replay) even when the parent changes nothing.
  const [, setCommits] = useState(0);

  /** Applies one key; true when the keys after it must wait for the next commit. */
  const apply = ({ input, key }: HeldKey): boolean => {
    const result = fieldKey(field.current, input, key);
    if (result.kind === 'ignore') {
      onKey?.(input, key);
      return true;
    }
    const before = field.current.value;
    field.current = result.state;
    setShown(result.state);
    if (result.state.value !== before) onChange(result.state.value);
    if (result.kind === 'submit') onSubmit(result.state.value);
    return result.kind === 'submit';
  };
  const hold = (rest: HeldKey[]) => {
    held.current = rest;
    setCommits((n) => n + 1);
  };

  useKeys(
    (input, key) => {
      if (!isActive || (gate && !gate())) return;
      if (held.current) held.current.push({ input, key });
      else if (apply({ input, key })) hold([]);
    },
    { isActive },
  );

  useLayoutEffect(() => {
    // Our own edits come back equal to the ref; any other value was set by the parent.
    if (value !== field.current.value) {
      field.current = fieldAt(value);
      setShown(field.current);
    }
    const queue = held.current;
    held.current = undefined;
    if (!queue || !isActive) return;
    for (let i = 0; i < queue.length; i++) {
      const next = queue[i];
      if (next && apply(next)) return hold(queue.slice(i + 1));
    }
  });

  // Until the layout effect above catches up, a value from the parent draws as it will end up.
  return shown.value === value ? shown : fieldAt(value);
}
