import type { CoreCommand } from './commands';
import type { CoreEvent } from './events';
import type { CoreState } from './state';

/** `listener`, hearing only events of the types in `only` (every event when there is none). */
export function ofTypes(
  listener: (event: CoreEvent) => void,
  only: readonly CoreEvent['type'][] | undefined,
): (event: CoreEvent) => void {
  if (only === undefined) return listener;
  const types = new Set(only);
  return (event) => {
    if (types.has(event.type)) listener(event);
  };
}

/** The UI's whole view of the core. Contract: `send` never throws; errors arrive as events. */
export type CoreClient = {
  /**
   * Events, whole: those of the types in `only`, or every one. A safe client sanitises each event a
   * listener is given, so a listener names the types it reads (a burst's thousands of call events
   * are then not sanitised for a drawer that waits for one kind).
   */
  subscribe(listener: (event: CoreEvent) => void, only?: readonly CoreEvent['type'][]): () => void;
  /**
   * Only the type of every event, as it happens: for a view that re-reads `snapshot()` on change and
   * never reads an event itself — a burst of thousands of calls is then not sanitised for it.
   */
  changes(listener: (type: CoreEvent['type']) => void): () => void;
  send(command: CoreCommand): void;
  snapshot(): CoreState;
};
