// Packages the first frame does not need, loaded synchronously on first use from files of their own
// (dist/chunks/<name>.cjs) instead of being compiled and run before the first frame. Each is reached
// through one small source file that exports a function returning the package's export (so tests and
// tsx run the real import); in the bundle that file becomes a `require` of the side file, which Node
// caches. Synchronous on purpose: redaction and markdown are synchronous, and stay exactly as they were.
import { build } from 'esbuild';
import { join } from 'node:path';

/** Each: the stub file (its path in the repository), the function it exports, the package export it returns. */
export const SIDE_MODULES = [
  {
    stub: 'src/audit/secret-preset.ts',
    fn: 'presetRules',
    pkg: '@secretlint/secretlint-rule-preset-recommend',
    name: 'rules',
    file: 'secretlint-preset.cjs',
  },
  {
    stub: 'components/transcript/markdown-lexer.ts',
    fn: 'markedLexer',
    pkg: 'marked',
    name: 'lexer',
    file: 'marked.cjs',
  },
];

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
    loaded = createRequire(import.meta.url)(join(chunks, ${JSON.stringify(m.file)}))[${JSON.stringify(m.name)}];
  }
  return loaded;
}
`,
        loader: 'js',
      }));
  },
};

/** Writes dist/chunks/<file> for each side module: the package's export, bundled, minified, CommonJS. */
export async function buildSideModules(root, chunksDir) {
  for (const m of SIDE_MODULES)
    await build({
      stdin: {
        contents: `export { ${m.name} } from ${JSON.stringify(m.pkg)};`,
        resolveDir: root,
        loader: 'js',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      minify: !process.env.WARDEN_NO_MINIFY,
      legalComments: 'none',
      outfile: join(chunksDir, m.file),
      logLevel: 'warning',
    });
}
