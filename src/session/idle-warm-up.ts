/**
 * What the core does with the moment the person types the first prompt (the first card
 * of a session): it opens the shadow repository (so the first card's checkpoint is only the
 * snapshot) and runs, once, the code a first answer and its card need (session/in-flight-warm-up.ts:
 * the tools' argument schemas, the secret redaction every audit line goes through), and the model
 * client (loaded and run against an in-memory answer). One step per turn of the event loop; stops as
 * soon as a turn runs.
 */
import type { ModelClient } from '../llm/types';
import type { AnyTool } from '../tools/types';
import { firstAnswerCode } from './in-flight-warm-up';

export type IdleWarmUp = {
  /** True while a turn runs (or the session closed): the warm-up stops. */
  busy(): boolean;
  openCheckpoints(): void;
  tools: readonly AnyTool[];
  model: ModelClient;
};

/**
 * Starts the steps; resolves when they are done or stopped (tests wait for it).
 * Contract: never rejects, never writes to the project, never opens a connection (the model
 * client's warm-up is in memory); each step is a pure function of a sample, or a load.
 */
export function startIdleWarmUp(o: IdleWarmUp): Promise<void> {
  const steps: (() => unknown)[] = [
    () => o.openCheckpoints(),
    ...firstAnswerCode(o.tools),
    () => o.model.warmUp?.(),
  ];
  return new Promise((resolve) => {
    const next = (index: number) => {
      const step = steps[index];
      if (!step || o.busy()) return resolve();
      Promise.resolve()
        .then(step)
        .catch(() => undefined)
        .then(() => setImmediate(() => next(index + 1)));
    };
    setImmediate(() => next(0));
  });
}
