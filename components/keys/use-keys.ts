import { type Key, useInput } from 'ink';
import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * useInput with a handler that always sees the latest render. Ink re-subscribes a changed
 * handler in a passive effect, so a key arriving between a commit and that effect reaches the
 * previous render's closure (stale state); a ref updated at commit closes that gap, and the
 * subscription itself never changes.
 */
export function useKeys(handler: (input: string, key: Key) => void, options: { isActive: boolean }): void {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  const stable = useCallback((input: string, key: Key) => latest.current(input, key), []);
  useInput(stable, options);
}
