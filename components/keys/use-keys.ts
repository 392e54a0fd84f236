import { type Key, useInput } from 'ink';
import { useCallback, useContext, useEffect, useLayoutEffect, useRef } from 'react';
import { KeyBridgeContext } from './key-bridge';
import { type KeyRow, keyId, lookup } from './keymap';

/** Asked before each key; a refused key is dropped (the approval drawer's grace window). */
export type KeyGate = () => boolean;

/**
 * useInput with a handler that always sees the latest render. Ink re-subscribes a changed
 * handler in a passive effect, so a key arriving between a commit and that effect reaches the
 * previous render's closure (stale state); a ref updated at commit closes that gap, and the
 * subscription itself never changes. `isActive` is read from the same ref, so a key can never
 * reach a handler that the last commit switched off, and `gate` (when given) is asked first.
 */
export function useKeys(
  handler: (input: string, key: Key) => void,
  options: { isActive: boolean; gate?: KeyGate },
): void {
  const latest = useRef({ handler, ...options });
  useLayoutEffect(() => {
    latest.current = { handler, ...options };
  });
  const stable = useCallback((input: string, key: Key) => {
    const current = latest.current;
    if (!current.isActive || (current.gate && !current.gate())) return;
    current.handler(input, key);
  }, []);
  useInput(stable, { isActive: options.isActive });
  // Until Ink's subscription above is live (its passive effect), the key bridge hands keys over:
  // added at commit, removed by an effect that runs after Ink's (effects run in order).
  const bridge = useContext(KeyBridgeContext);
  const bridged = useRef<() => void>(undefined);
  useLayoutEffect(() => {
    if (!bridge || !options.isActive) return;
    const remove = bridge.add(stable);
    bridged.current = remove;
    return remove;
  }, [bridge, options.isActive, stable]);
  useEffect(() => {
    bridged.current?.();
    bridged.current = undefined;
  }, [bridge, options.isActive, stable]);
}

/**
 * useKeys over one key table: a key is looked up in `table` and its action's handler runs; keys
 * the table does not bind do nothing. `handlers` is a `Record` over the table's actions, so a row
 * added to a table does not compile until its context says what it does.
 */
export function useKeyTable<A extends string>(
  table: Record<A, KeyRow>,
  handlers: Record<A, () => void>,
  options: { isActive: boolean; gate?: KeyGate },
): void {
  useKeys((input, key) => runKey(table, handlers, input, key), options);
}

/** Runs the handler of the action `table` binds to this key press; false when it binds none. */
export function runKey<A extends string>(
  table: Record<A, KeyRow>,
  handlers: Record<A, () => void>,
  input: string,
  key: Key,
): boolean {
  const action = lookup<A>(table, keyId(input, key));
  if (action) handlers[action]();
  return action !== undefined;
}
