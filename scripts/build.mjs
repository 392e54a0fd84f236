// Bundles src/cli.tsx into one file, dist/warden.js: a bundled Ink app is on screen about three
// times sooner than the same app imported from node_modules. `--if-stale` rebuilds only when a
// source file is newer than the bundle, so `npm start` costs nothing on the second run.
import { build } from 'esbuild';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedOptions } from './esbuild-options.mjs';
import { buildSideModules, sideModuleStubs } from './side-modules.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'warden.js');
const sources = [
  'src',
  'components',
  'assets',
  'scripts/build.mjs',
  'scripts/esbuild-options.mjs',
  'scripts/string-width-cached.mjs',
  'scripts/ansi-tokenize-cached.mjs',
  'scripts/devtools-stub.mjs',
  'scripts/side-modules.mjs',
  'scripts/react-esm.mjs',
  'package.json',
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

if (process.argv.includes('--if-stale') && existsSync(out)) {
  const built = statSync(out).mtimeMs;
  if (sources.every((s) => newestMtime(join(root, s)) <= built)) process.exit(0);
}

// Heavy parts loaded on demand (the HTML stack of web_fetch, the MCP SDK) become chunks of their
// own, so start-up compiles and runs only what the first screen needs.
rmSync(join(root, 'dist', 'chunks'), { recursive: true, force: true });
mkdirSync(dirname(out), { recursive: true });
await build({
  ...sharedOptions(root),
  entryPoints: { warden: join(root, 'src', 'cli.tsx') },
  outdir: join(root, 'dist'),
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // Packages that locate binaries or wasm files next to themselves stay in node_modules.
  external: ['@vscode/ripgrep', '@vscode/ripgrep-*', 'web-tree-sitter', 'tree-sitter-bash'],
  plugins: [...sharedOptions(root).plugins, sideModuleStubs],
});
// The audit export's worker thread and the OpenTelemetry SDK it runs: a file of its own
// (src/audit/export/audit-export.ts starts it), loaded only when the audit log is exported.
await build({
  ...sharedOptions(root),
  entryPoints: { 'audit-export-worker': join(root, 'src', 'audit', 'export', 'export-worker.ts') },
  outdir: join(root, 'dist', 'chunks'),
});
// What the first frame does not draw, loaded on first use (scripts/side-modules.mjs).
await buildSideModules(root, join(root, 'dist', 'chunks'));
chmodSync(out, 0o755);
