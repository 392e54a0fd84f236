// The binary half of bench/secrets-corpus.bench.ts: the bundled warden, headless, in batches (one
// process per batch, so no conversation grows past a few hundred calls), against a fake
// OpenAI-compatible server on 127.0.0.1 whose script runs one `printf` per case. Each call carries
// its case's index as `timeout_ms`, so its outcome record is found again whatever order the calls
// finished in. A temp HOME and WARDEN_HOME per batch, removed at exit.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeStep, startFakeOpenAI } from '../test/helpers/fake-openai';
import { WARDEN_BIN } from '../test/helpers/pty';
import type { CorpusCase } from './secrets-corpus-data';
import { benchTempDir } from './temp-dir';

/** What an outcome record kept of a case's call. */
export type SeenCase = { command: string; result: string };

const BATCH = 160;
const CALLS_PER_STEP = 8;
const FIRST_TIMEOUT_MS = 1000;

/** The command that prints `text` as it is: single-quoted, a `'` written as `'\''`. */
export function printCommand(text: string): string {
  return `printf '%s\\n' '${text.replaceAll("'", `'\\''`)}'`;
}

function run(root: string, url: string): Promise<void> {
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(join(home, '.warden'), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(home, '.warden', 'config.json'), JSON.stringify({ maxStepsPerTurn: 10_000 }));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [WARDEN_BIN, '--headless', '-p', 'print the cases'],
      {
        cwd: project,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          TMPDIR: root,
          WARDEN_HOME: join(home, '.warden'),
          OPENAI_API_KEY: 'bench-key',
          OPENAI_BASE_URL: url,
        },
        maxBuffer: 64 << 20,
      },
      (error, _stdout, stderr) => {
        if (error && !/execute_command/.test(stderr)) console.log(`  batch ended: ${stderr.slice(0, 300)}`);
        resolve();
      },
    );
  });
}

/** Outcome records of execute_command in a WARDEN_HOME, by the `timeout_ms` their call carried. */
function readOutcomes(wardenHome: string): Map<number, SeenCase> {
  const out = new Map<number, SeenCase>();
  const dir = join(wardenHome, 'audit');
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      const r = JSON.parse(line) as {
        tool?: string;
        phase?: string;
        args?: { command?: string; timeout_ms?: number };
        result?: string;
      };
      if (r.tool !== 'execute_command' || r.phase !== 'outcome' || typeof r.args?.timeout_ms !== 'number')
        continue;
      out.set(r.args.timeout_ms, { command: r.args.command ?? '', result: r.result ?? '' });
    }
  }
  return out;
}

/** Runs every case through the binary; the outcome record of each case found, by case id. */
export async function runBinaryCases(cases: readonly CorpusCase[]): Promise<Map<string, SeenCase>> {
  if (!existsSync(WARDEN_BIN)) {
    console.log(`(b) skipped: ${WARDEN_BIN} is not built (npm run build).`);
    return new Map();
  }
  const seen = new Map<string, SeenCase>();
  const started = performance.now();
  for (let from = 0; from < cases.length; from += BATCH) {
    const batch = cases.slice(from, from + BATCH);
    const steps: FakeStep[] = [];
    for (let i = 0; i < batch.length; i += CALLS_PER_STEP)
      steps.push({
        toolCalls: batch.slice(i, i + CALLS_PER_STEP).map((c, j) => ({
          name: 'execute_command',
          args: { command: printCommand(c.text), timeout_ms: FIRST_TIMEOUT_MS + i + j },
        })),
        chunkSize: 1 << 16,
      });
    const fake = await startFakeOpenAI(steps, { whenExhausted: { text: 'All printed.' } });
    const root = benchTempDir('warden-secrets-corpus-');
    try {
      await run(root, fake.url);
    } finally {
      await fake.close();
    }
    const outcomes = readOutcomes(join(root, 'home', '.warden'));
    batch.forEach((c, k) => {
      const found = outcomes.get(FIRST_TIMEOUT_MS + k);
      if (found) seen.set(c.id, found);
    });
  }
  console.log(`    binary: ${cases.length} cases in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return seen;
}
