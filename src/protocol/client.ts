import type { CoreCommand } from './commands';
import type { CoreEvent } from './events';
import type { CoreState } from './state';

/** The UI's whole view of the core. Contract: `send` never throws; errors arrive as events. */
export type CoreClient = {
  /** Every event, whole (a safe client sanitises each one for its listeners). */
  subscribe(listener: (event: CoreEvent) => void): () => void;
  /**
   * Only the type of every event, as it happens: for a view that re-reads `snapshot()` on change and
   * never reads an event itself — a burst of thousands of calls is then not sanitised for it.
   */
  changes(listener: (type: CoreEvent['type']) => void): () => void;
  send(command: CoreCommand): void;
  snapshot(): CoreState;
};
