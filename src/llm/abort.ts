/** Small helpers that make waiting interruptible, so an abort is always felt at once. */
import { ModelError } from './types';

/** The one error every model client rejects with when its signal aborts. */
export function abortedError(): ModelError {
  return new ModelError('The model request was cancelled.', 'aborted');
}

/**
 * A promise that rejects with `abortedError()` as soon as `signal` aborts, plus a disposer.
 * Contract: never resolves; call `dispose` when the race is over so no listener leaks.
 */
export function rejectOnAbort(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<never>((_, reject) => {
    if (signal.aborted) return reject(abortedError());
    const onAbort = () => reject(abortedError());
    signal.addEventListener('abort', onAbort, { once: true });
    dispose = () => signal.removeEventListener('abort', onAbort);
  });
  // The race may end the other way; an unobserved rejection here is expected, not an error.
  promise.catch(() => {});
  return { promise, dispose };
}

/** Runs `work` and rejects with `abortedError()` the moment `signal` aborts, whichever is first. */
export async function raceAbort<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  const abort = rejectOnAbort(signal);
  try {
    return await Promise.race([work, abort.promise]);
  } finally {
    abort.dispose();
  }
}

/** Waits `ms` (0 means one macrotask tick). Contract: rejects with `abortedError()` on abort. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(abortedError());
    const onAbort = () => {
      clearTimeout(timer);
      clearImmediate(tick);
      reject(abortedError());
    };
    const done = () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const timer = ms > 0 ? setTimeout(done, ms) : undefined;
    const tick = ms > 0 ? undefined : setImmediate(done);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
