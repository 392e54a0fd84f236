import { useEffect, useRef, useState } from 'react';
import { keyId, lookup, PROMPT_KEYS } from '../keys/keymap';
import { useKeys } from '../keys/use-keys';

/** How long after a first Ctrl+C a second one quits. */
export const CTRL_C_WINDOW_MS = 2000;

/**
 * Ctrl+C twice within `windowMs` calls `onQuit`; once only arms (returns true until the window
 * passes) so a stray press never ends a session with work in flight.
 */
export function useCtrlC(onQuit: () => void, options: { isActive: boolean; windowMs?: number }): boolean {
  const [armed, setArmed] = useState(false);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const windowMs = options.windowMs ?? CTRL_C_WINDOW_MS;
  useKeys(
    (input, key) => {
      if (lookup(PROMPT_KEYS, keyId(input, key)) !== 'quit') return;
      if (timer.current) {
        clearTimeout(timer.current);
        timer.current = undefined;
        setArmed(false);
        onQuit();
        return;
      }
      setArmed(true);
      timer.current = setTimeout(() => {
        timer.current = undefined;
        setArmed(false);
      }, windowMs);
    },
    { isActive: options.isActive },
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return armed;
}
