import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApprovalRequest, CoreClient, Decision } from '../../src/protocol';

export type InvalidCount = { count: number; limit: number };

/** What must change for a still-pending request to take a new decision (a refused edit). */
function signature(request: ApprovalRequest): string {
  return `${request.editError ?? ''}\u0000${request.revision ?? ''}`;
}

/**
 * Sends decisions at most once per request: after `decide`, the request is locked until it leaves
 * `pending` (or comes back changed, as after a refused edit). Also follows the core's count of
 * invalid keys per request, from `approval_input_invalid` events.
 */
export function useApprovalDecisions(client: CoreClient, pending: ApprovalRequest[]) {
  const locks = useRef(new Map<string, string>());
  const [, rerender] = useState(0);
  const [invalid, setInvalid] = useState<Map<string, InvalidCount>>(() => new Map());

  useEffect(
    () =>
      client.subscribe((event) => {
        if (event.type !== 'approval_input_invalid') return;
        setInvalid((m) => new Map(m).set(event.requestId, { count: event.count, limit: event.limit }));
      }),
    [client],
  );

  // Forget locks (and counts) of requests that have left the queue.
  useEffect(() => {
    const ids = new Set(pending.map((r) => r.id));
    for (const id of locks.current.keys()) if (!ids.has(id)) locks.current.delete(id);
    setInvalid((m) => {
      const stale = [...m.keys()].filter((id) => !ids.has(id));
      if (!stale.length) return m;
      const next = new Map(m);
      for (const id of stale) next.delete(id);
      return next;
    });
  }, [pending]);

  const isDeciding = useCallback((request: ApprovalRequest) => {
    const lock = locks.current.get(request.id);
    return lock !== undefined && lock === signature(request);
  }, []);

  const decide = useCallback(
    (request: ApprovalRequest, decision: Decision) => {
      if (isDeciding(request)) return false;
      locks.current.set(request.id, signature(request));
      client.send({ type: 'decide', id: request.id, decision });
      rerender((n) => n + 1);
      return true;
    },
    [client, isDeciding],
  );

  return { decide, isDeciding, invalid };
}
