// The peers' secret corpus (gitleaks' rule examples, detect tests and testdata; secretlint's rule
// fixtures), read from ../shared/peer-corpus/secrets.json beside the repository — never copied into
// it. Scoring is shared by the plain-text and the binary halves of bench/secrets-corpus.bench.ts.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One case: `redact` — every string of `secrets` must be gone; `keep` — the text must come out as it went in. */
export type CorpusCase = {
  id: string;
  source: string;
  rule: string;
  expect: 'redact' | 'keep';
  text: string;
  secrets?: string[];
};

export const CORPUS_PATH = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'shared',
  'peer-corpus',
  'secrets.json',
);

/** The cases, or undefined (with the reason printed) when the corpus is not beside the repository. */
export function loadCorpus(): CorpusCase[] | undefined {
  if (!existsSync(CORPUS_PATH)) {
    console.log(`The peer corpus is absent (${CORPUS_PATH}): nothing to measure.`);
    return undefined;
  }
  const data = JSON.parse(readFileSync(CORPUS_PATH, 'utf8')) as { cases: CorpusCase[] };
  return data.cases;
}

/** A case's family: the gitleaks rule file (`aws`, `generic`), its detect tests, or the secretlint rule. */
export function familyOf(c: CorpusCase): string {
  const path = c.source.split(' ')[1] ?? c.source;
  const rules = /config\/rules\/([\w-]+)\.go$/.exec(path);
  if (rules) return rules[1] as string;
  const lint = /secretlint-rule-([\w-]+)\//.exec(path);
  if (lint) return `secretlint:${lint[1]}`;
  return `gitleaks:${path.split('/')[0]}`;
}

/** Counts per family. */
export type Tally = { leaked: number; total: number; changed: number; benign: number };

/**
 * Scores what came out for a case: whether a secret survived in any of `outputs`, or (a benign
 * case) whether `kept` says it came out changed.
 */
export function score(
  c: CorpusCase,
  outputs: readonly string[],
  kept: boolean,
): { leaked: boolean; changed: boolean } {
  if (c.expect === 'keep') return { leaked: false, changed: !kept };
  const secrets = (c.secrets ?? []).filter((s) => s.length > 0);
  return { leaked: outputs.some((o) => secrets.some((s) => o.includes(s))), changed: false };
}

/** Prints totals and the families that leak or change something, worst first. */
export function printTallies(title: string, byFamily: Map<string, Tally>, showFamilies = 25): void {
  let leaked = 0;
  let total = 0;
  let changed = 0;
  let benign = 0;
  for (const t of byFamily.values()) {
    leaked += t.leaked;
    total += t.total;
    changed += t.changed;
    benign += t.benign;
  }
  const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(2)} %`;
  console.log(
    `${title}: leaked ${leaked} / ${total} (${pct(leaked, total)}), benign changed ${changed} / ${benign} (${pct(changed, benign)})`,
  );
  const bad = [...byFamily.entries()]
    .filter(([, t]) => t.leaked > 0 || t.changed > 0)
    .sort((a, b) => b[1].leaked + b[1].changed - (a[1].leaked + a[1].changed));
  for (const [family, t] of bad.slice(0, showFamilies))
    console.log(`  ${family.padEnd(40)} leaked ${t.leaked}/${t.total}  changed ${t.changed}/${t.benign}`);
  if (bad.length > showFamilies) console.log(`  … and ${bad.length - showFamilies} more families`);
}

/** Adds one scored case to its family's tally. */
export function tally(
  byFamily: Map<string, Tally>,
  c: CorpusCase,
  result: { leaked: boolean; changed: boolean },
): void {
  const family = familyOf(c);
  const t = byFamily.get(family) ?? { leaked: 0, total: 0, changed: 0, benign: 0 };
  if (c.expect === 'keep') {
    t.benign++;
    if (result.changed) t.changed++;
  } else {
    t.total++;
    if (result.leaked) t.leaked++;
  }
  byFamily.set(family, t);
}
