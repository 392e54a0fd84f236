import { closeSync, constants, openSync } from 'node:fs';

/**
 * Runs `work` while watching whether anything opens `fifo` for reading. A reader blocked in open()
 * is let go (a writer opens and closes, which gives it EOF) so the call can finish and the test fail
 * with a reason instead of hanging. Polls with setImmediate; no fixed sleep.
 */
export async function watchFifo<T>(fifo: string, work: Promise<T>): Promise<{ result: T; opened: boolean }> {
  let done = false;
  let opened = false;
  const settled = work.finally(() => {
    done = true;
  });
  while (!done) {
    try {
      // Succeeds only while a reader has the FIFO open (ENXIO otherwise).
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      opened = true;
    } catch {
      // No reader: keep watching.
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { result: await settled, opened };
}
