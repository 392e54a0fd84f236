// Resolve hooks for bench/as-bundled.mjs: `string-width` → scripts/string-width-cached.mjs (which
// itself imports the package by path, so it is not redirected again).
const cached = new URL('../scripts/string-width-cached.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'string-width' && context.parentURL !== cached)
    return { url: cached, shortCircuit: true };
  return next(specifier, context);
}
