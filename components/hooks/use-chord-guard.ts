import { useCallback, useRef } from 'react';
import { useKeys } from './use-keys';

/**
 * ink-text-input inserts the letter of a Ctrl/Alt chord (Ink reports Ctrl+A as input "a" with
 * key.ctrl). This wraps its onChange so chords never type text. Ink calls input listeners in an
 * order that changes as components re-subscribe, so both orders are handled: if the chord is seen
 * first the change is dropped; if the change came first it is rolled back.
 */
export function useChordGuard(value: string, setValue: (next: string) => void, isActive: boolean) {
  const state = useRef({ chord: false, changedFrom: undefined as string | undefined });

  // Both flags live for one keypress: Ink emits each key to all listeners synchronously.
  const endOfKeypress = useCallback(() => {
    queueMicrotask(() => {
      state.current.chord = false;
      state.current.changedFrom = undefined;
    });
  }, []);

  useKeys(
    (input, key) => {
      const isChord = (key.ctrl && input.length === 1 && input !== 'c') || (key.meta && !key.escape && input.length === 1);
      if (!isChord) return;
      state.current.chord = true;
      if (state.current.changedFrom !== undefined) setValue(state.current.changedFrom);
      endOfKeypress();
    },
    { isActive },
  );

  return useCallback(
    (next: string) => {
      if (state.current.chord) return;
      state.current.changedFrom ??= value;
      setValue(next);
      endOfKeypress();
    },
    [value, setValue, endOfKeypress],
  );
}
