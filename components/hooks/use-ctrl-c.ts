import { useEffect, useRef, useState } from 'react';
import { keyId, lookup, PROMPT_KEYS } from '../keys/keymap';
import { useKeys } from '../keys/use-keys';

/** How long after an idle Ctrl+C a second one quits. */
export const CTRL_C_WINDOW_MS = 2000;

/** What one Ctrl+C does. */
export type CtrlCAction = 'interrupt' | 'arm' | 'quit';

/** What the presses so far left behind: an interrupt already asked for, a quit armed until a time. */
export type CtrlCState = { interrupted: boolean; armedUntil: number };

export const CTRL_C_IDLE: CtrlCState = { interrupted: false, armedUntil: 0 };

/**
 * One Ctrl+C, as Claude Code and Gemini CLI read it: while a turn runs the first press interrupts
 * it; when idle (or when a turn keeps running after its interrupt) a press arms quitting, and a
 * second press within the window quits. Pure.
 */
export function ctrlCStep(
  state: CtrlCState,
  input: { busy: boolean; now: number; windowMs: number },
): { action: CtrlCAction; state: CtrlCState } {
  if (input.now < state.armedUntil) return { action: 'quit', state: CTRL_C_IDLE };
  if (input.busy && !state.interrupted)
    return { action: 'interrupt', state: { interrupted: true, armedUntil: 0 } };
  return { action: 'arm', state: { interrupted: state.interrupted, armedUntil: input.now + input.windowMs } };
}

/**
 * Ctrl+C: interrupts a running turn (`onInterrupt`), or arms quitting when idle; a second press
 * within `windowMs` calls `onQuit`. Returns true while armed, so the prompt can say "press Ctrl+C
 * again to quit". A stray single press never ends a session.
 */
export function useCtrlC(
  handlers: { onQuit: () => void; onInterrupt: () => void },
  options: { isActive: boolean; busy: boolean; windowMs?: number; now?: () => number },
): boolean {
  const [armed, setArmed] = useState(false);
  const state = useRef<CtrlCState>(CTRL_C_IDLE);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const windowMs = options.windowMs ?? CTRL_C_WINDOW_MS;
  // A turn that ended (or a new one) starts over: the next interrupt goes to the turn running then.
  useEffect(() => {
    if (!options.busy) state.current = { ...state.current, interrupted: false };
  }, [options.busy]);
  useKeys(
    (input, key) => {
      if (lookup(PROMPT_KEYS, keyId(input, key)) !== 'quit') return;
      const now = (options.now ?? Date.now)();
      const step = ctrlCStep(state.current, { busy: options.busy, now, windowMs });
      state.current = step.state;
      clearTimeout(timer.current);
      timer.current = undefined;
      if (step.action === 'interrupt') return handlers.onInterrupt();
      if (step.action === 'quit') {
        setArmed(false);
        return handlers.onQuit();
      }
      setArmed(true);
      timer.current = setTimeout(() => {
        timer.current = undefined;
        state.current = { ...state.current, armedUntil: 0 };
        setArmed(false);
      }, windowMs);
    },
    { isActive: options.isActive },
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return armed;
}
