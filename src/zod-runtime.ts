/**
 * zod itself, behind a function: the bundle loads it (~190 kB, and its set-up) on the first
 * validation, not before the first frame (scripts/side-modules.mjs swaps this file for a
 * synchronous load of dist/chunks/zod.cjs). Reach it through src/lazy-zod.ts.
 */
import * as zod from 'zod';

/** The zod module, exactly as the package exports it. */
export function zodRuntime(): typeof zod {
  return zod;
}
