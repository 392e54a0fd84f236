// Measures the import graph of src/ and components/: folder-level arrows, import
// circles and arrows running back up the layers. Prints figures; `--list` prints the arrows too,
// `--json` prints everything machine-readable. Type-only imports count: they couple files as well.
// Usage: node scripts/import-graph.mjs [--list] [--json]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['src', 'components'];

/**
 * The layers from the design, top (may import anything below) to bottom. A folder arrow from a
 * lower layer to a higher one runs back up. Folders in one layer may import each other. A folder in
 * no layer is reported (`unlayered`): its arrows could not be judged.
 */
const layers = [
  ['src/cli', 'components'],
  ['src/session'],
  ['src/agent', 'src/mcp', 'src/answers'],
  ['src/gate'],
  ['src/tools', 'src/checkpoint', 'src/hooks'],
  ['src/policy', 'src/trust', 'src/config', 'src/llm', 'src/commands'],
  ['src/audit'],
  ['src/protocol', 'src/text', 'src/os', 'src/*'],
];

/** Every .ts/.tsx file under a folder, relative to the repository. */
function sourceFiles(dir) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The repository-relative file a relative specifier names, or undefined (packages, missing). */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(root, dirname(from), specifier).replace(/\.(js|ts|tsx)$/, '');
  const candidates = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  const hit = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  return hit ? relative(root, hit) : undefined;
}

/** Relative imports of one file (static, re-exports, dynamic), as repository-relative files. */
function importsOf(file) {
  const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  const targets = info.importedFiles.map((f) => resolveSpecifier(file, f.fileName)).filter(Boolean);
  return [...new Set(targets)];
}

/**
 * The folder a file belongs to for the folder graph: its top-level feature folder under src/
 * (src/policy/command/x.ts → src/policy), components/ and its sub-folders, src/cli.tsx on its own,
 * the other files directly in src/ (assets.ts, exit.ts: leaf helpers) as `src/*`.
 */
function folderOf(file) {
  const parts = file.split('/');
  if (parts[0] === 'components') return parts.length > 2 ? `components/${parts[1]}` : 'components';
  if (parts.length === 2) {
    // src/protocol.ts and src/session*.ts, src/headless.ts are the protocol and session features
    // before they had folders; measure them as such so before and after compare like with like.
    const name = parts[1].replace(/\.tsx?$/, '');
    if (name === 'protocol') return 'src/protocol';
    if (/^session|^headless$/.test(name)) return 'src/session';
    return name === 'cli' ? 'src/cli' : 'src/*';
  }
  return `${parts[0]}/${parts[1]}`;
}

/** The folder in its sub-folder detail (src/policy/command), for the fine-grained arrow count. */
const dirOf = (file) => dirname(file);

const layerOf = (folder) => {
  const i = layers.findIndex((l) => l.includes(folder));
  return i === -1 ? layers.findIndex((l) => l.some((f) => folder.startsWith(`${f}/`))) : i;
};

/** Strongly connected components with more than one file (Tarjan), each sorted. */
function circles(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const found = [];
  const visit = (v) => {
    meta.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).onStack) meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
    }
    if (meta.get(v).low === meta.get(v).index) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).onStack = false;
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return found;
}

const files = roots.flatMap(sourceFiles).sort();
const graph = new Map(files.map((f) => [f, importsOf(f)]));

const folderArrows = new Set();
const dirArrows = new Set();
const backArrows = new Map();
for (const [from, targets] of graph) {
  for (const to of targets) {
    const [a, b] = [folderOf(from), folderOf(to)];
    if (dirOf(from) !== dirOf(to)) dirArrows.add(`${dirOf(from)} → ${dirOf(to)}`);
    if (a === b) continue;
    folderArrows.add(`${a} → ${b}`);
    const [la, lb] = [layerOf(a), layerOf(b)];
    if (la !== -1 && lb !== -1 && lb < la) {
      const key = `${a} → ${b}`;
      backArrows.set(key, [...(backArrows.get(key) ?? []), `${from} → ${to}`]);
    }
  }
}
const unlayered = [...new Set(files.map(folderOf))].filter((f) => layerOf(f) === -1).sort();
const fileCircles = circles(graph);
const folderGraph = new Map();
for (const arrow of folderArrows) {
  const [a, b] = arrow.split(' → ');
  folderGraph.set(a, [...(folderGraph.get(a) ?? []), b]);
  if (!folderGraph.has(b)) folderGraph.set(b, []);
}
const folderCircles = circles(folderGraph);

const result = {
  files: files.length,
  folderArrows: [...folderArrows].sort(),
  dirArrows: [...dirArrows].sort(),
  circles: fileCircles,
  folderCircles,
  backArrows: Object.fromEntries([...backArrows].sort()),
  unlayered,
};

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(result, null, 2));
} else {
  console.log(`files                      ${result.files}`);
  console.log(`folder-level arrows        ${result.folderArrows.length}  (feature folders)`);
  console.log(
    `  of which core → core     ${result.folderArrows.filter((a) => /^src\S* → src/.test(a)).length}  (src/ only; components/ apart)`,
  );
  console.log(`directory arrows           ${result.dirArrows.length}  (every directory, sub-folders apart)`);
  console.log(`import circles (files)     ${result.circles.length}`);
  for (const c of result.circles) console.log(`  ${c.join(' ↔ ')}`);
  console.log(`folder circles             ${result.folderCircles.length}`);
  for (const c of result.folderCircles) console.log(`  ${c.join(' ↔ ')}`);
  console.log(`arrows running back up     ${backArrows.size}`);
  for (const [arrow, via] of backArrows) console.log(`  ${arrow}   (${via.join(', ')})`);
  if (unlayered.length > 0) console.log(`folders in no layer        ${unlayered.join(', ')}`);
  if (process.argv.includes('--list')) for (const a of result.folderArrows) console.log(`  ${a}`);
}
