import type { CoreCommand } from './commands';
import type { CoreEvent } from './events';
import type { CoreState } from './state';

/** The UI's whole view of the core. Contract: `send` never throws; errors arrive as events. */
export type CoreClient = {
  subscribe(listener: (event: CoreEvent) => void): () => void;
  send(command: CoreCommand): void;
  snapshot(): CoreState;
};
