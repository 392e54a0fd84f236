/**
 * picomatch, behind a function: the bundle loads it the first time a glob needs it (an extglob the
 * bounded compiler refuses, a grant's scope, a credential list), not before the first frame
 * (scripts/side-modules.mjs swaps this file for a synchronous load of dist/chunks/picomatch.cjs).
 * Matching is synchronous and unchanged.
 */
import picomatch from 'picomatch';

/** The picomatch function, exactly as the package exports it. */
export function picomatchLib(): typeof picomatch {
  return picomatch;
}
