/** How long a batch of calls runs before it lets the event loop turn (keys, a frame, the session file). */
export const BREATHE_EVERY_MS = 16;

/**
 * A pause every BREATHE_EVERY_MS, shared by all lanes of one batch: calls that finish without real
 * I/O (small reads are synchronous) would otherwise chain as promise continuations for the whole
 * burst, and no key (Esc to cancel), frame or timer could run until it ended. Every lane waits for
 * the same turn of the loop, so the microtask queue empties and the loop moves on.
 * Contract: the returned function never rejects.
 */
export function breather(): () => Promise<void> {
  let since = performance.now();
  let pause: Promise<void> | undefined;
  return () => {
    if (!pause && performance.now() - since >= BREATHE_EVERY_MS) {
      pause = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        pause = undefined;
        since = performance.now();
      });
    }
    return pause ?? Promise.resolve();
  };
}
