import { type Key, useInput } from 'ink';
import { createContext, type ReactNode, useMemo, useRef } from 'react';

/** A key handler as useKeys subscribes it: it checks its own `isActive` and gate. */
export type KeyHandler = (input: string, key: Key) => void;

/** Hands keys to handlers Ink has not subscribed yet; `add` returns the removal. */
export type KeyBridge = { add(handler: KeyHandler): () => void };

export const KeyBridgeContext = createContext<KeyBridge | undefined>(undefined);

/**
 * Closes the gap between a key handler's mount and its subscription. Ink subscribes useInput in a
 * passive effect, which React runs from a setImmediate after the commit; when the process is busy,
 * keys already waiting on stdin are read first and reach no one (a reason typed right after `n` lost
 * its first letters). useKeys adds its handler here at commit (a layout effect) and takes it away
 * once Ink's own subscription is live, so in between this provider's one subscription, live since
 * the app started, passes keys on. Handlers added while a key is handed out do not get that key.
 */
export function KeyBridgeProvider({ children }: { children: ReactNode }): ReactNode {
  const waiting = useRef(new Set<KeyHandler>());
  const bridge = useMemo<KeyBridge>(
    () => ({
      add(handler) {
        waiting.current.add(handler);
        return () => {
          waiting.current.delete(handler);
        };
      },
    }),
    [],
  );
  useInput((input, key) => {
    for (const handler of [...waiting.current]) if (waiting.current.has(handler)) handler(input, key);
  });
  return <KeyBridgeContext.Provider value={bridge}>{children}</KeyBridgeContext.Provider>;
}
