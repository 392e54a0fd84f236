// Packages the first frame does not need, loaded synchronously on first use from files of their own
// (dist/chunks/<file>) instead of being compiled and run before the first frame. Each is reached
// through one small source file that exports a function returning the package's export (so tests and
// tsx run the real import); in the bundle that file becomes a `require` of the side file, which Node
// caches. Synchronous on purpose: validation, redaction and markdown are synchronous and stay exactly
// as they were; only where their code lives changes.
import { build } from 'esbuild';
import { join } from 'node:path';
import { zodEnglishOnly } from './esbuild-options.mjs';

/**
 * Each: the stub file (its path in the repository), the function it exports, the package (or a
 * file copied into the repository, from its root), the export the function returns (`*`: the
 * whole module), and the build plugins the package needs.
 */
export const SIDE_MODULES = [
  {
    stub: 'src/zod-runtime.ts',
    fn: 'zodRuntime',
    pkg: 'zod',
    name: '*',
    file: 'zod.cjs',
    plugins: [zodEnglishOnly],
  },
  {
    stub: 'src/audit/secret-preset.ts',
    fn: 'presetRules',
    pkg: './src/audit/rules/secretlint-preset.js',
    name: 'rules',
    file: 'secretlint-preset.cjs',
  },
  {
    stub: 'src/policy/guards/ipaddr-lib.ts',
    fn: 'ipaddrLib',
    pkg: 'ipaddr.js',
    name: 'default',
    file: 'ipaddr.cjs',
  },
  {
    stub: 'src/policy/picomatch-lib.ts',
    fn: 'picomatchLib',
    pkg: 'picomatch',
    name: 'default',
    file: 'picomatch.cjs',
  },
  {
    stub: 'components/transcript/markdown-lexer.ts',
    fn: 'markedLexer',
    pkg: 'marked',
    name: 'lexer',
    file: 'marked.cjs',
  },
];

/** The property of the side file's exports the stub returns. */
const exported = (m) => (m.name === '*' ? 'all' : m.name);

const escape = (path) => path.replace(/[.*+?^${}()|[\]\\/]/g, (c) => (c === '/' ? '[\\\\/]' : `\\${c}`));

/** The esbuild plugin that turns each stub into a load of its side file (found next to the chunk that asks). */
export const sideModuleStubs = {
  name: 'side-module-stubs',
  setup(b) {
    for (const m of SIDE_MODULES)
      b.onLoad({ filter: new RegExp(`${escape(m.stub)}$`) }, () => ({
        contents: `import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
let loaded;
export function ${m.fn}() {
  if (loaded === undefined) {
    const here = dirname(fileURLToPath(import.meta.url));
    const chunks = basename(here) === 'chunks' ? here : join(here, 'chunks');
    loaded = createRequire(import.meta.url)(join(chunks, ${JSON.stringify(m.file)})).${exported(m)};
  }
  return loaded;
}
`,
        loader: 'js',
      }));
  },
};

/** Writes `<chunksDir>/<file>` for each side module: the package's export, bundled, minified, CommonJS. */
export async function buildSideModules(root, chunksDir) {
  for (const m of SIDE_MODULES) {
    const what = m.name === '*' ? `* as ${exported(m)}` : `{ ${m.name} }`;
    await build({
      stdin: { contents: `export ${what} from ${JSON.stringify(m.pkg)};`, resolveDir: root, loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      minify: !process.env.WARDEN_NO_MINIFY,
      legalComments: 'none',
      plugins: m.plugins ?? [],
      outfile: join(chunksDir, m.file),
      logLevel: 'warning',
    });
  }
}
