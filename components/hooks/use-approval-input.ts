import { type Key, useInput } from 'ink';
import { createContext, useCallback, useContext, useLayoutEffect, useRef } from 'react';

/** Asks the drawer whether a key may act now; false inside the grace window. */
export type ApprovalKeyGate = () => boolean;

/** Provided by the drawer; every drawer input hook asks it before acting on a key. */
export const ApprovalKeyGateContext = createContext<ApprovalKeyGate>(() => true);

/** The drawer's gate, for a TextField inside the drawer: `<TextField gate={useApprovalKeyGate()} />`. */
export function useApprovalKeyGate(): ApprovalKeyGate {
  return useContext(ApprovalKeyGateContext);
}

export type ApprovalInputHandler = (input: string, key: Key) => void;

/**
 * `useInput` for the approval drawer. The handler and `isActive` are read from refs updated at
 * commit, so a key that arrives before React re-subscribes can never reach a stale card, and every
 * key first passes the drawer's grace-window gate.
 */
export function useApprovalInput(handler: ApprovalInputHandler, { isActive }: { isActive: boolean }): void {
  const gate = useContext(ApprovalKeyGateContext);
  const latest = useRef({ handler, isActive, gate });
  useLayoutEffect(() => {
    latest.current = { handler, isActive, gate };
  });
  const stable = useCallback((input: string, key: Key) => {
    const current = latest.current;
    if (!current.isActive || !current.gate()) return;
    current.handler(input, key);
  }, []);
  useInput(stable, { isActive });
}
