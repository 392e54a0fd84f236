// grep_code (ripgrep with the hardened argv, JSON parsing, suggested reads) against the simplest
// alternative, a recursive Node scan (readdir + readFile + regex), over the same 20 000-file tree.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PathFence } from '../src/policy/guards/path-guard';
import { createGrepCodeTool } from '../src/tools/fs/grep-code';
import type { ToolContext } from '../src/tools/types';
import { median, printRow, timeRuns } from './stats';

const FILES = 20_000;
const PER_DIR = 100;
const NEEDLE_EVERY = 100; // 200 files hold the needle: under the 500-match cap, so rg scans everything too
const RUNS = 5;

const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-grep-bench-')));
try {
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `pkg${Math.floor(i / PER_DIR / 10)}`, `mod${Math.floor(i / PER_DIR)}`);
    if (i % PER_DIR === 0) mkdirSync(dir, { recursive: true });
    const lines = [
      `export const value${i} = ${i};`,
      `// file ${i} of the generated tree`,
      `export function f${i}(x: number) {`,
      '  return x * 2;',
      '}',
    ];
    if (i % NEEDLE_EVERY === 0) lines.splice(3, 0, '  // TODO(needle): remove this');
    writeFileSync(join(dir, `file${i}.ts`), `${lines.join('\n')}\n`);
  }

  const ctx: ToolContext = {
    root,
    fence: new PathFence(root),
    commands: { judge: () => ({ kind: 'ok', parts: [], readOnly: true, destructive: [], notes: [] }) },
    sandbox: { kind: 'none', reason: 'bench' },
    signal: new AbortController().signal,
  };
  const grep = createGrepCodeTool();
  let rgMatches = 0;
  const grepOnce = async () => {
    const result = await grep.execute({ pattern: 'TODO\\(needle\\)', max_results: 500 }, ctx);
    if (!result.ok) throw new Error(result.error);
    rgMatches = (result.data as { matches: unknown[] }).matches.length;
  };
  let nodeMatches = 0;
  const nodeOnce = () => {
    nodeMatches = nodeScan(root, /TODO\(needle\)/).length;
  };

  await grepOnce();
  nodeOnce();
  const rgTimes = await timeRuns(RUNS, grepOnce);
  const nodeTimes = await timeRuns(RUNS, nodeOnce);
  const rg = median(rgTimes);
  const node = median(nodeTimes);
  printRow(`tree`, `${FILES} files, ${FILES / NEEDLE_EVERY} with the needle`);
  printRow(`grep_code (ripgrep) median of ${RUNS}`, `${rg.toFixed(1)} ms  (${rgMatches} matches)`);
  printRow(
    `node readdir+readFile+regex median of ${RUNS}`,
    `${node.toFixed(1)} ms  (${nodeMatches} matches)`,
  );
  printRow('node scan / grep_code', `${(node / rg).toFixed(2)}×`);
} finally {
  rmSync(root, { recursive: true, force: true });
}

function nodeScan(dir: string, pattern: RegExp): { path: string; line: number }[] {
  const hits: { path: string; line: number }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '.git' && entry.name !== 'node_modules') hits.push(...nodeScan(path, pattern));
    } else if (entry.isFile()) {
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((text, i) => {
          if (pattern.test(text)) hits.push({ path, line: i + 1 });
        });
    }
  }
  return hits;
}
