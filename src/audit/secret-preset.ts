/**
 * secretlint's recommended preset, behind a function: the bundle loads the preset (~65 kB) the
 * first time a text could hold one of its tokens, not before the first frame
 * (scripts/side-modules.mjs swaps this file for a synchronous load of dist/chunks/secretlint-preset.cjs).
 */
import { rules } from '@secretlint/secretlint-rule-preset-recommend';

/** The preset's rules, exactly as the package exports them. */
export function presetRules(): readonly unknown[] {
  return rules;
}
