// Redaction cost in instructions, not seconds: these machines are shared and their wall-clock
// ratios swing by ±20 % between runs, while callgrind's instruction counts repeat for the same
// binary and input whatever else runs. This redactor and those of REDACT_BASELINE_REV (commits,
// comma-separated; default e131f55, before issue 28) are each bundled with esbuild and run under
// `valgrind --tool=callgrind` over (a) this repository's first 400 source files and (b) 10,000
// audit records shaped like a command's outcome line; the count of one round is the difference
// between a run of 3 rounds and a run of 1 (start-up and compiling cancel out).
// Skips, saying so, where valgrind is not installed. REDACT_INSTRUCTIONS_FILES=n changes the 400.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { baselineSource } from './baseline-src';
import { printRow } from './stats';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(repo, '.bench-tmp');
const revs = (process.env.REDACT_BASELINE_REV ?? 'e131f55').split(',').filter((r) => r !== '');
const files = Number(process.env.REDACT_INSTRUCTIONS_FILES ?? 400);

/** The source of a runner over `redact` (a path to a redact.ts) and one workload. */
function runnerSource(redactPath: string, workload: 'source' | 'records'): string {
  return `
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redact, redactString } from ${JSON.stringify(redactPath)};
const rounds = Number(process.argv[2] ?? 1);
function walk(dir, out = []) {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\\.(ts|tsx|md|json|mjs)$/.test(n)) out.push(readFileSync(p, 'utf8'));
  }
  return out;
}
let sink = 0;
if (${JSON.stringify(workload)} === 'source') {
  const texts = ['src', 'components', 'test'].flatMap((d) => walk(join(${JSON.stringify(repo)}, d))).slice(0, ${files});
  for (let r = 0; r < rounds; r++) for (const t of texts) sink += redactString(t + '\\n// ' + r).length;
} else {
  for (let r = 0; r < rounds; r++)
    for (let i = 0; i < 10000; i++)
      sink += JSON.stringify(redact({
        tool: 'execute_command', requestId: 'req-' + r + '-' + i, decision: 'ask', approver: 'human', outcome: 'executed',
        args: { command: 'API_TOKEN=abc123 npm test -- --grep "case ' + i + '"', cwd: '/home/user/project', timeoutMs: 120000 },
        argsHash: '3f786850e387550fdab836ed7e6dc881de23001b3f786850e387550fdab836ed', risk: 'medium',
        result: 'exit 0\\n ✓ 42 tests passed in ' + i + 'ms',
      })).length;
}
if (sink < 0) console.log(sink);
`;
}

/** The redactor of `rev`, its src/ taken with `git archive` (as bench/redact.bench.ts does). */
function baselinePath(rev: string): string {
  return join(baselineSource(repo, rev), 'src', 'audit', 'redact.ts');
}

async function bundle(name: string, source: string): Promise<string> {
  const entry = join(tmp, `${name}.entry.mjs`);
  const out = join(tmp, `${name}.bundle.mjs`);
  writeFileSync(entry, source);
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'error',
  });
  return out;
}

function instructions(script: string, rounds: number): number {
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, script, String(rounds)],
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  const collected = /Collected : (\d+)/.exec(run.stderr ?? '');
  if (!collected) throw new Error(`callgrind printed no count for ${script}: ${run.stderr?.slice(-400)}`);
  return Number(collected[1]);
}

const perRound = (script: string): number => (instructions(script, 3) - instructions(script, 1)) / 2;

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.log('valgrind is not installed: no instruction counts (apt-get install valgrind).');
} else {
  mkdirSync(tmp, { recursive: true });
  const ours = join(repo, 'src', 'audit', 'redact.ts');
  for (const workload of ['source', 'records'] as const) {
    const now = perRound(await bundle(`instr-now-${workload}`, runnerSource(ours, workload)));
    const what = workload === 'source' ? `${files} source files` : '10,000 audit records';
    printRow(`redaction of ${what}, instructions a round`, `${(now / 1e6).toFixed(0)} M`);
    for (const rev of revs) {
      const then = perRound(
        await bundle(`instr-${rev}-${workload}`, runnerSource(baselinePath(rev), workload)),
      );
      printRow(
        `  the redactor of ${rev}`,
        `${(then / 1e6).toFixed(0)} M (ours ${(then / now).toFixed(2)}× as fast; ours ${(now / then).toFixed(2)}× its instructions)`,
      );
    }
  }
}
