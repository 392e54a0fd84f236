// A plain command line judged without the shell grammar (issue 34, src/policy/command/command-plain.ts)
// against the grammar's judge, in the same run: (a) a fresh process's time from nothing to the first
// verdict on `touch x` — the judge's module alone, or the module with web-tree-sitter, its runtime
// and the bash language loaded and the first parse; (b) judgements a second once warm, on plain
// lines of the kind a model runs. Each fresh process is spawned in turn, alternating which goes first.
// COMMAND_PLAIN_RUNS sets the fresh processes per kind (default 9).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCommandGuard } from '../src/policy/command/command-guard';
import { judgeWithoutGrammar } from '../src/policy/command/command-judge';
import { median, printRow } from './stats';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(repo, '.bench-tmp');
const RUNS = Number(process.env.COMMAND_PLAIN_RUNS ?? 9);
mkdirSync(tmp, { recursive: true });

/** A script that prints the ms from its start to the first verdict on `touch x`. */
function script(kind: 'plain' | 'grammar'): string {
  const file = join(tmp, `command-plain-${kind}.mts`);
  const judge = join(repo, 'src/policy/command/command-judge.ts');
  const guard = join(repo, 'src/policy/command/command-guard.ts');
  writeFileSync(
    file,
    kind === 'plain'
      ? `const t = performance.now();
const { judgeWithoutGrammar } = await import(${JSON.stringify(judge)});
const v = judgeWithoutGrammar('touch x');
if (v?.kind !== 'ok') throw new Error('no verdict');
console.log(performance.now() - t);`
      : `const t = performance.now();
const { loadCommandGuard } = await import(${JSON.stringify(guard)});
const g = await loadCommandGuard();
if (g.judge('touch x').kind !== 'ok') throw new Error('no verdict');
console.log(performance.now() - t);`,
  );
  return file;
}

const files = { plain: script('plain'), grammar: script('grammar') };
const fresh: Record<'plain' | 'grammar', number[]> = { plain: [], grammar: [] };
for (let run = 0; run < RUNS; run++) {
  const order = run % 2 === 0 ? (['plain', 'grammar'] as const) : (['grammar', 'plain'] as const);
  for (const kind of order) {
    const out = spawnSync(process.execPath, ['--import', 'tsx', files[kind]], {
      cwd: repo,
      encoding: 'utf8',
    });
    if (out.status !== 0) throw new Error(`${kind}: ${out.stderr}`);
    fresh[kind].push(Number(out.stdout.trim()));
  }
}

const LINES = ['ls -la', 'touch x', 'npm test', 'git status --short', 'rm -rf build', 'make CC=gcc -j 4'];
const grammar = await loadCommandGuard();
function perSecond(judge: (line: string) => unknown): number {
  for (let i = 0; i < 2000; i++) judge(LINES[i % LINES.length] as string);
  const n = 30_000;
  const t = performance.now();
  for (let i = 0; i < n; i++) judge(LINES[i % LINES.length] as string);
  return n / ((performance.now() - t) / 1000);
}
const withGrammar = perSecond((line) => grammar.judge(line));
const without = perSecond((line) => judgeWithoutGrammar(line));

const [p, g] = [median(fresh.plain), median(fresh.grammar)];
console.log(`fresh process → first verdict on \`touch x\`, medians of ${RUNS} (tsx-transpiled sources)`);
printRow('  the judge alone (a plain line)', `${p.toFixed(1)} ms`);
printRow(
  '  the judge with the shell grammar',
  `${g.toFixed(1)} ms (${(g / p).toFixed(2)}× the plain line's)`,
);
console.log('warm judgements of plain lines');
printRow('  without the grammar', `${(without / 1000).toFixed(1)} k/s`);
printRow(
  '  with the grammar',
  `${(withGrammar / 1000).toFixed(1)} k/s (${(without / withGrammar).toFixed(2)}× fewer)`,
);
