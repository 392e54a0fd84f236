import { useEffect, useState } from 'react';
import type { CoreClient, CoreState } from '../../src/protocol';

/** How long a burst of events (e.g. message deltas) is coalesced into one re-render. */
export const COALESCE_MS = 16;

/**
 * The core's state, re-read from `client.snapshot()` after events. Events within one
 * COALESCE_MS window cause one render, so streaming deltas don't render once per delta;
 * approval requests and their resolutions render at once — unless another did less than
 * COALESCE_MS ago: a burst of thousands of requests then renders once a frame, not once each
 * (every render copies and walks the whole state).
 */
export function useCoreState(client: CoreClient): CoreState {
  const [state, setState] = useState(() => client.snapshot());
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    let lastUrgent = Number.NEGATIVE_INFINITY;
    const flush = () => {
      timer = undefined;
      setState(client.snapshot());
    };
    const unsubscribe = client.subscribe((event) => {
      // A request waiting for a person is shown at once; streaming text may wait a frame.
      const urgent = event.type === 'approval_requested' || event.type === 'approval_resolved';
      if (urgent && performance.now() - lastUrgent >= COALESCE_MS) {
        lastUrgent = performance.now();
        if (timer) clearTimeout(timer);
        flush();
        return;
      }
      timer ??= setTimeout(flush, COALESCE_MS);
    });
    // An event may have arrived between the first snapshot and subscribing.
    setState(client.snapshot());
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [client]);
  return state;
}
