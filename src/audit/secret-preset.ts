/**
 * secretlint's recommended preset, behind a function: the bundle loads the preset (~65 kB) the
 * first time a text could hold one of its tokens, not before the first frame
 * (scripts/side-modules.mjs swaps this file for a synchronous load of dist/chunks/secretlint-preset.cjs).
 * The preset is the package's own published bundle, copied into rules/ by
 * scripts/refresh-secretlint-preset.mjs (no dependency whose engines exclude Node 20).
 */
import { rules } from './rules/secretlint-preset';

/** The preset's rules, exactly as the package exports them. */
export function presetRules(): readonly unknown[] {
  return rules;
}
