// The index of every build-time replacement of a dependency's internals: what each replaces, why (the
// figure measured when it was made), the upstream issue or PR where there is one, and when to delete
// it. test/scripts/replacements.test.ts runs each plugin against the installed package and fails when
// a replaced internal changed shape (an upgrade), before a build would; it also fails when a plugin or
// an alias of scripts/esbuild-options.mjs has no row here, or a row names one that is gone.
//
// Tests run against the source, not this patched bundle (vitest loads the packages as published):
// the swaps keep behaviour by construction — each is checked to give the package's own results in
// test/scripts/ (esbuild-options, string-width-cached, ansi-tokenize-cached) — and the e2e tests run
// the real patched binary (dist/warden.js) in a pseudo-terminal.

/**
 * Each row: `id` (the esbuild plugin's name, the alias's package, or the side-module mechanism),
 * `kind`, `target` (the file of the package it swaps, relative to node_modules; a plugin's onLoad
 * filter must match it), `in` (where the swap lives), `what`, `why`, `upstream`, `deleteWhen`.
 */
export const REPLACEMENTS = [
  {
    id: 'yoga-without-fetch',
    kind: 'plugin',
    target: 'yoga-layout/dist/binaries/yoga-wasm-base64-esm.js',
    in: 'scripts/esbuild-options.mjs',
    what: "yoga-layout's wasm loader takes its synchronous path (decode the base64 string) instead of fetch()",
    why: 'fetch() loads undici and compiles its HTTP-parser wasm before the first frame: ~40 ms of the Ink hello-world start-up',
    upstream: 'https://github.com/react/yoga/pull/1793 (load the wasm without a base64 data URL; open)',
    deleteWhen:
      'yoga-layout loads its wasm without fetch in Node, or Node 20 support ends and fetch is cheap',
  },
  {
    id: 'string-width-lazy',
    kind: 'plugin',
    target: 'string-width/index.js',
    in: 'scripts/esbuild-options.mjs',
    what: "string-width's \\p{RGI_Emoji} regex and Intl.Segmenter are built on first use, not at import",
    why: 'built at import before any frame: ~25 ms for the regex (+~10 ms at its first test), ~10 ms for the segmenter',
    upstream: 'https://github.com/sindresorhus/string-width/issues/57 (a faster string-width; closed)',
    deleteWhen: 'string-width builds them lazily itself',
  },
  {
    id: 'zod-english-only',
    kind: 'plugin',
    target: 'zod/v4/classic/external.js',
    in: 'scripts/esbuild-options.mjs',
    what: "zod's `locales` namespace export resolves to an empty module; English messages stay",
    why: 'its ~40 languages are 258 kB, over half of zod in the bundle; warden never reads z.locales',
    upstream: 'none filed',
    deleteWhen: 'zod stops re-exporting every locale from its entry',
  },
  {
    id: 'ink-shared-output-caches',
    kind: 'plugin',
    target: 'ink/build/output.js',
    in: 'scripts/esbuild-options.mjs',
    what: "Ink's per-frame line caches (styled characters, widths) and a new one for clipped slices live across frames, bounded",
    why: 'every frame tokenized and clipped every line again, the unchanged status bar and transcript included',
    upstream: 'none filed',
    deleteWhen: 'Ink keeps its output caches across frames',
  },
  {
    id: 'ink-draw-now',
    kind: 'plugin',
    target: 'ink/build/ink.js',
    in: 'scripts/esbuild-options.mjs',
    what: "a hook (globalThis.__wardenDrawNow) that draws Ink's held-back throttled frame now",
    why: 'an approval card that followed a streamed line waited up to 33 ms (Ink draws at most one frame per 33 ms)',
    upstream: 'none filed',
    deleteWhen: "Ink exposes a way to flush its throttled render (or the app's cards stop needing it)",
  },
  {
    id: 'ink-static-own-root',
    kind: 'plugin',
    target: 'ink/build/reconciler.js',
    in: 'scripts/esbuild-options.mjs',
    what: 'an update of a <Static> marks the root that owns it, not the module-wide currentRootNode',
    why: "after the off-screen warm-up render, the app's new <Static> history was never printed (a fast answer missing in 4 of 6 runs)",
    upstream: 'https://github.com/vadimdemedes/ink/pull/979 (currentRootNode removed; merged)',
    deleteWhen: 'the Ink release warden uses contains vadimdemedes/ink#979',
  },
  {
    id: 'openai-plain-headers',
    kind: 'plugin',
    target: 'openai/internal/headers.mjs',
    in: 'scripts/esbuild-options.mjs',
    what: "openai's two modules that name the global Headers get warden's plain class (src/llm/http/plain-headers.ts)",
    why: "Node 20's global Headers is undici's: its first touch loads all of undici (~45 ms, ~8 MiB)",
    upstream: 'none filed',
    deleteWhen: 'openai takes a Headers implementation from its fetch option, or Node 20 support ends',
  },
  {
    id: 'react-esm',
    kind: 'plugin',
    target: 'react/index.js',
    in: 'scripts/react-esm.mjs',
    what: 'ES imports of react and react/jsx-runtime read one shared ES wrapper with plain bindings',
    why: "esbuild's per-importer __toESM wrappers: ~130 objects with 44 getters each before the first frame (~5 ms)",
    upstream: 'none filed (React ships CommonJS)',
    deleteWhen: 'React ships an ES module build',
  },
  {
    id: 'react-devtools-core',
    kind: 'alias',
    target: 'ink/build/devtools.js',
    in: 'scripts/devtools-stub.mjs',
    what: 'react-devtools-core is an empty stand-in (initialize, connectToDevTools)',
    why: 'Ink loads it only when DEV=true; the real package would be bundled for nothing',
    upstream: 'none filed',
    deleteWhen: 'Ink makes react-devtools-core an optional import the bundler can leave out',
  },
  {
    id: 'string-width',
    kind: 'alias',
    target: 'string-width/index.js',
    in: 'scripts/string-width-cached.mjs',
    what: "the package's own function behind a bounded memo, and narrow lines counted without the segmenter",
    why: 'a line with one non-ASCII character costs ~100 µs in the segmenter instead of ~1 µs, every line of every frame',
    upstream: 'https://github.com/sindresorhus/string-width/issues/57',
    deleteWhen: 'Ink caches widths across frames, or string-width has a fast path for narrow text',
  },
  {
    id: '@alcalzone/ansi-tokenize',
    kind: 'alias',
    target: '@alcalzone/ansi-tokenize/build/index.js',
    in: 'scripts/ansi-tokenize-cached.mjs',
    what: "tokenize and styledCharsFromTokens (Ink's two calls per line per frame) behind a memo; a line whose code units are each a grapheme read without the segmenter",
    why: 'a quarter of a diff card key was re-tokenizing unchanged lines; a new 120-column line cost ~220 µs in the segmenter against ~20 µs (the first command card frame)',
    upstream: 'none filed',
    deleteWhen: 'Ink keeps its styled lines across frames',
  },
  {
    id: 'side-modules',
    kind: 'side-module',
    target: 'zod/index.js',
    in: 'scripts/side-modules.mjs',
    what: 'packages the first frame does not need (zod, the secretlint preset, ipaddr.js, picomatch …) are built into dist/chunks/*.cjs, required on first use',
    why: 'compiling and running them before the first frame; each stays synchronous and exactly as strict',
    upstream: 'not an upstream problem (start-up work of warden)',
    deleteWhen: 'Node compiles these lazily enough (or the first frame needs them)',
  },
];
