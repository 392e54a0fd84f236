// Redaction speed on real text: this repository's own source (src/, components/, test/) and real
// command output (`git log -p`, `git log --stat`, `ls -la` of system folders), in MB/s, against the
// simplest alternative in the same run (one regular expression of token prefixes) and, with
// REDACT_BASELINE_REV=<commit>, against the redactor of that commit (its src/ is taken with
// `git archive` into .bench-tmp/ and imported beside this one: before/after in one process).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { redactString } from '../src/audit/redact';
import { baselineSource } from './baseline-src';
import { median, printRow } from './stats';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = 5;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(?:ts|tsx|mjs|json|md)$/.test(name)) out.push(readFileSync(path, 'utf8'));
  }
  return out;
}

function commandOutputs(): string[] {
  const run = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args, { cwd: repo, encoding: 'utf8', maxBuffer: 64 << 20 });
    } catch {
      return '';
    }
  };
  const log = run('git', ['log', '-p', '-n', '150']);
  const stat = run('git', ['log', '--stat', '-n', '400']);
  const ls = ['/usr/bin', '/usr/lib', '/etc'].map((d) => run('ls', ['-la', d])).join('\n');
  // Command output reaches the redactor in pieces of a tool result's size (output-cap.ts keeps 30 kB).
  const pieces: string[] = [];
  for (const text of [log, stat, ls])
    for (let i = 0; i < text.length; i += 30_000) pieces.push(text.slice(i, i + 30_000));
  return pieces;
}

/** Loads the redactor of `rev` from its own copy of src/ (resolved against this repo's node_modules). */
async function baselineRedactor(rev: string): Promise<((text: string) => string) | undefined> {
  const dir = baselineSource(repo, rev);
  const mod = (await import(pathToFileURL(join(dir, 'src', 'audit', 'redact.ts')).href)) as {
    redactString: (text: string) => string;
  };
  return mod.redactString;
}

/** The simplest alternative: one pass of one expression of well-known token prefixes. */
const SIMPLE = /(?:sk-|gh[pousr]_|glpat-|xox[abprs]-|AKIA|AIza)[A-Za-z0-9_-]{16,}/g;
const simple = (text: string): string => text.replace(SIMPLE, '[REDACTED]');

/**
 * MB/s of each of `fns` over `texts`, rounds interleaved (so neither gets the warmer machine); each
 * round's texts differ by a last line, so no memo is hit.
 */
function rates(texts: readonly string[], fns: readonly ((text: string) => string)[]): number[] {
  const bytes = texts.reduce((n, t) => n + t.length, 0);
  const times: number[][] = fns.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    fns.forEach((fn, k) => {
      const fresh = texts.map((t) => `${t}\n// round ${round} ${k} ${Math.random()}`);
      const start = performance.now();
      for (const t of fresh) fn(t);
      times[k]?.push(performance.now() - start);
    });
  }
  return times.map((t) => bytes / 1e6 / (median(t) / 1000));
}

const rev = process.env.REDACT_BASELINE_REV;
const baseline = rev ? await baselineRedactor(rev) : undefined;
const corpora: [string, string[]][] = [
  [
    'real source (src, components, test)',
    ['src', 'components', 'test'].flatMap((d) => sourceFiles(join(repo, d))),
  ],
  ['real command output (git log -p, ls -la)', commandOutputs()],
];
for (const [label, texts] of corpora) {
  const mb = texts.reduce((n, t) => n + t.length, 0) / 1e6;
  // Warm both up (JIT, the lazily loaded rule sets) before timing.
  for (const t of texts.slice(0, 50)) {
    redactString(`${t} warm`);
    baseline?.(`${t} warm`);
  }
  const [now = 0, floor = 0, before = 0] = rates(
    texts,
    baseline ? [redactString, simple, baseline] : [redactString, simple],
  );
  printRow(`${label}, ${mb.toFixed(1)} MB`, `${now.toFixed(1)} MB/s`);
  printRow(
    '  one expression of token prefixes',
    `${floor.toFixed(1)} MB/s (${(floor / now).toFixed(1)}× ours)`,
  );
  if (baseline)
    printRow(`  redactor of ${rev}`, `${before.toFixed(1)} MB/s (ours ${(now / before).toFixed(2)}× that)`);
}
