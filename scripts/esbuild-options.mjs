// The esbuild settings every bundled entry shares: warden's own (scripts/build.mjs) and the bundled
// Ink hello-world the TUI bench measures as its floor (bench/ink-floor.tsx), so both are built alike.
// Every swap of a dependency's internals here is listed in scripts/replacements.mjs (what, why, upstream, delete when).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { reactEsm } from './react-esm.mjs';

/**
 * Ink's layout engine (yoga-layout) ships its wasm as a base64 data: URL and loads it with fetch(),
 * which makes Node load undici and compile undici's own HTTP-parser wasm before the first frame
 * (~40 ms of the bundled Ink hello-world's start-up, profiled). Its emscripten loader already has a
 * synchronous path that decodes the same string; this takes it. Contract: fails the build when a
 * yoga-layout upgrade changes the loader, rather than silently shipping the slow path.
 */
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(build) {
    build.onLoad(
      { filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ },
      async (args) => {
        const source = await readFile(args.path, 'utf8');
        const asyncPath = 'function ya(){return w||"function"!=typeof fetch?';
        if (!source.includes(asyncPath))
          return {
            errors: [{ text: 'yoga-layout changed its wasm loader: update scripts/esbuild-options.mjs' }],
          };
        return { contents: source.replace(asyncPath, 'function ya(){return true?'), loader: 'js' };
      },
    );
  },
};

/**
 * string-width builds two costly objects when it is imported: a `\p{RGI_Emoji}` regex (~25 ms to
 * construct, ~10 ms more at its first test) and an Intl.Segmenter (~10 ms), all before any frame,
 * though a line of narrow characters never reaches them (scripts/string-width-cached.mjs). This
 * builds each on first use; the same objects, so the same widths. Contract: fails the build when
 * string-width changes these lines.
 */
const stringWidthLazy = {
  name: 'string-width-lazy',
  setup(build) {
    build.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      let source = await readFile(args.path, 'utf8');
      const swaps = [
        [
          'const segmenter = new Intl.Segmenter();',
          'let segmenterBuilt;\nconst segmenter = { segment: (text) => (segmenterBuilt ??= new Intl.Segmenter()).segment(text) };',
        ],
        [
          'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
          "let rgiEmojiBuilt;\nconst rgiEmojiRegex = { test: (text) => (rgiEmojiBuilt ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(text) };",
        ],
      ];
      for (const [from, to] of swaps) {
        if (!source.includes(from))
          return { errors: [{ text: `string-width changed (${from}): update scripts/esbuild-options.mjs` }] };
        source = source.replace(from, () => to);
      }
      return { contents: source, loader: 'js' };
    });
  },
};

/**
 * Ink's Output keeps its line caches (styled characters, widths) for one frame, so every frame
 * tokenizes and clips every line again, the unchanged status bar and transcript included. These
 * caches (and a new one for clipped slices) live across frames here, bounded, and start again when
 * full; cached character cells are only read, never changed, as within one frame already.
 * Contract: fails the build when Ink's output.js changes these lines.
 */
const inkSharedOutputCaches = {
  name: 'ink-shared-output-caches',
  setup(build) {
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]output\.js$/ }, async (args) => {
      let source = await readFile(args.path, 'utf8');
      const swaps = [
        [
          '    styledChars = new Map();\n',
          '    styledChars = new Map();\n    slices = new Map();\n    getSlice(line, from, to) {\n        const key = `${from}:${to}:${line}`;\n        let cached = this.slices.get(key);\n        if (cached === undefined) {\n            cached = sliceAnsi(line, from, to);\n            this.slices.set(key, cached);\n        }\n        return cached;\n    }\n',
        ],
        ['    caches = new OutputCaches();', '    caches = sharedOutputCaches();'],
        ['return sliceAnsi(line, from, to);', 'return this.caches.getSlice(line, from, to);'],
      ];
      for (const [from, to] of swaps) {
        if (!source.includes(from))
          return { errors: [{ text: `ink changed (${from.trim()}): update scripts/esbuild-options.mjs` }] };
        source = source.replace(from, () => to);
      }
      // Lines of a few frames, not of a session: a styled line is ~100 bytes a cell.
      source += `
let sharedCaches;
function sharedOutputCaches() {
    const c = sharedCaches;
    if (!c || c.styledChars.size > 600 || c.slices.size > 600 || c.widths.size > 6000 || c.blockWidths.size > 2000)
        sharedCaches = new OutputCaches();
    return sharedCaches;
}
`;
      return { contents: source, loader: 'js' };
    });
  },
};

/**
 * Ink draws at most one frame per 33 ms and holds a change back to the end of that window: an
 * approval card that follows a streamed line by a few milliseconds waited up to 33 ms to be seen.
 * This gives the app a way to draw a held-back frame now (`globalThis.__wardenDrawNow`, called when a
 * new card mounts: components/look/use-draw-now.ts); the frame is the one Ink would draw anyway.
 * Contract: fails the build when Ink's ink.js changes this line.
 */
const inkDrawNow = {
  name: 'ink-draw-now',
  setup(build) {
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]ink\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const line = '            this.throttledOnRender = throttled;\n';
      if (!source.includes(line))
        return { errors: [{ text: 'ink changed its throttled render: update scripts/esbuild-options.mjs' }] };
      const hook =
        '            globalThis.__wardenDrawNow = () => {\n                if (this.hasPendingThrottledRender) throttled.flush();\n            };\n';
      return { contents: source.replace(line, () => line + hook), loader: 'js' };
    });
  },
};

/**
 * The openai package builds its request headers with the global `Headers`, which in Node 20 is
 * undici's: the first touch loads all of undici (~45 ms, ~8 MiB, measured), though warden's model
 * transport is node:http (src/llm/http/node-fetch.ts). Its two modules that name `Headers` get the
 * plain class instead (same members, src/llm/http/plain-headers.ts). Contract: fails the build when
 * openai stops naming `Headers` there (an upgrade moved it: check where to).
 */
const openaiPlainHeaders = (root) => ({
  name: 'openai-plain-headers',
  setup(build) {
    build.onLoad({ filter: /[\\/]openai[\\/]internal[\\/](headers|utils[\\/]log)\.mjs$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!/\bHeaders\b/.test(source.replace(/import[^;]*;/g, '')))
        return {
          errors: [
            { text: `openai no longer names Headers in ${args.path}: update scripts/esbuild-options.mjs` },
          ],
        };
      const plain = JSON.stringify(join(root, 'src', 'llm', 'http', 'plain-headers.ts'));
      return { contents: `import { PlainHeaders as Headers } from ${plain};\n${source}`, loader: 'js' };
    });
  },
});

/**
 * Ink's reconciler marks "the static output changed" on a module-wide `currentRootNode`: the root of
 * whichever tree last created a <Static>. warden renders its first card off-screen
 * (components/warm-up.tsx, `renderToString`), whose <Static> takes that variable; from then on an
 * update of the app's own <Static> marked the dead off-screen root, and the app's new history —
 * the prompt, the answer — was never printed (seen: a fast answer missing in 4 of 6 runs). Here an
 * update marks the root of the <Static> node that changed. Contract: fails the build when Ink's
 * reconciler.js changes these lines.
 */
const inkStaticOwnRoot = {
  name: 'ink-static-own-root',
  setup(build) {
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const from =
        '        if (currentRootNode && node.internal_static) {\n            currentRootNode.isStaticDirty = true;\n        }\n';
      if (!source.includes(from))
        return {
          errors: [{ text: 'ink changed how <Static> marks its root: update scripts/esbuild-options.mjs' }],
        };
      const to =
        '        if (node.internal_static) {\n            let root = node;\n            while (root.parentNode) root = root.parentNode;\n            root.isStaticDirty = true;\n        }\n';
      return { contents: source.replace(from, () => to), loader: 'js' };
    });
  },
};

/**
 * zod's namespace export `locales` pulls its ~40 message languages (258 kB, over half of zod in the
 * bundle) into start-up; warden speaks English only and never reads `z.locales`. English stays.
 */
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)) return undefined;
      return { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-english-only' };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/** Settings for a bundled, minified, production-React ESM entry of this repository at `root`. */
export function sharedOptions(root) {
  return {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    // WARDEN_NO_MINIFY=1 keeps names readable in a --cpu-prof profile.
    minify: !process.env.WARDEN_NO_MINIFY,
    legalComments: 'none',
    // string-width and Ink's line tokenizer behind memos (scripts/*-cached.mjs): frames re-measure and
    // re-tokenize unchanged lines.
    alias: {
      'react-devtools-core': join(root, 'scripts', 'devtools-stub.mjs'),
      'string-width': join(root, 'scripts', 'string-width-cached.mjs'),
      '@alcalzone/ansi-tokenize': join(root, 'scripts', 'ansi-tokenize-cached.mjs'),
    },
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __wardenRequire } from 'node:module';\nconst require = __wardenRequire(import.meta.url);",
    },
    plugins: [
      yogaWithoutFetch,
      stringWidthLazy,
      zodEnglishOnly,
      inkSharedOutputCaches,
      inkDrawNow,
      inkStaticOwnRoot,
      openaiPlainHeaders(root),
      reactEsm(root),
    ],
    logLevel: 'warning',
  };
}
