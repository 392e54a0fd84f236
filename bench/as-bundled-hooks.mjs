// Resolve hooks for bench/as-bundled.mjs: the aliases of scripts/build.mjs — `string-width` →
// scripts/string-width-cached.mjs, `@alcalzone/ansi-tokenize` → scripts/ansi-tokenize-cached.mjs
// (each imports its package by path, so it is not redirected again).
const ALIASES = {
  'string-width': new URL('../scripts/string-width-cached.mjs', import.meta.url).href,
  '@alcalzone/ansi-tokenize': new URL('../scripts/ansi-tokenize-cached.mjs', import.meta.url).href,
};

export async function resolve(specifier, context, next) {
  const url = ALIASES[specifier];
  if (url && context.parentURL !== url) return { url, shortCircuit: true };
  return next(specifier, context);
}
