import { useCallback, useRef } from 'react';
import { useKeys } from './use-keys';

/**
 * ink-text-input inserts the letter of a Ctrl/Alt chord (Ink reports Ctrl+A as input "a" with
 * key.ctrl), and inserts a chunk holding line breaks (a paste, or text and Enter arriving
 * together) raw, where a "\r" would wreck the layout. This wraps its onChange so chords never
 * type text, and hands such chunks to `onLineBreaks` with the value from before the key.
 * Ink calls input listeners in an order that changes as components re-subscribe, so both orders
 * are handled: if the key is seen first the change is dropped; if the change came first it is
 * rolled back.
 */
export function useChordGuard(
  value: string,
  setValue: (next: string) => void,
  isActive: boolean,
  onLineBreaks?: (chunk: string, before: string) => void,
) {
  const state = useRef({ swallow: false, changedFrom: undefined as string | undefined });

  // Both fields live for one keypress: Ink emits each key to all listeners synchronously.
  const endOfKeypress = useCallback(() => {
    queueMicrotask(() => {
      state.current.swallow = false;
      state.current.changedFrom = undefined;
    });
  }, []);

  useKeys(
    (input, key) => {
      const isChord = (key.ctrl && input.length === 1 && input !== 'c') || (key.meta && !key.escape && input.length === 1);
      const hasBreaks = onLineBreaks !== undefined && input.length > 1 && /[\r\n]/.test(input);
      if (!isChord && !hasBreaks) return;
      state.current.swallow = true;
      const before = state.current.changedFrom ?? value;
      if (state.current.changedFrom !== undefined) setValue(state.current.changedFrom);
      if (hasBreaks) onLineBreaks(input, before);
      endOfKeypress();
    },
    { isActive },
  );

  return useCallback(
    (next: string) => {
      if (state.current.swallow) return;
      state.current.changedFrom ??= value;
      setValue(next);
      endOfKeypress();
    },
    [value, setValue, endOfKeypress],
  );
}
