// Secrets against the peers' own corpora (issue 28): gitleaks' rule examples, detect tests and
// testdata and secretlint's rule fixtures, read from ../shared/peer-corpus/secrets.json (never copied
// into the repository). Prints leaked / total and changed / benign, by family, for
// (a) the redactor on plain text, and
// (b) the real binary: a headless run whose scripted model (a fake server on 127.0.0.1) runs
//     `printf '%s\n' '<text>'` for each case; the audit record's `args.command` and `result` must
//     not hold the secret (and, for a benign text, hold no redaction mark).
// SECRETS_CORPUS_BINARY=0 skips (b); SECRETS_CORPUS_LIMIT=n measures the first n cases only;
// SECRETS_CORPUS_SHOW=1 names each case (b) leaked or changed, with what the audit line kept.
import { redactString } from '../src/audit/redact';
import { findGitleaks } from '../src/audit/secret-gitleaks';
import { findMaintained } from '../src/audit/secret-maintained';
import { runBinaryCases } from './secrets-corpus-binary';
import { type CorpusCase, loadCorpus, printTallies, score, type Tally, tally } from './secrets-corpus-data';

const cases = loadCorpus();
if (cases) {
  const limit = Number(process.env.SECRETS_CORPUS_LIMIT ?? cases.length);
  const chosen: CorpusCase[] = cases.slice(0, limit);
  const plain = new Map<string, Tally>();
  const started = performance.now();
  for (const c of chosen) {
    const out = redactString(c.text);
    const scored = score(c, [out], out === c.text);
    tally(plain, c, scored);
    if (process.env.SECRETS_CORPUS_SHOW === '1' && (scored.leaked || scored.changed))
      console.log(
        `    ${scored.leaked ? 'leaked' : 'changed'} ${c.id}: ${JSON.stringify(out).slice(0, 240)}`,
      );
  }
  const ms = performance.now() - started;
  printTallies('(a) redactor, plain text', plain);
  console.log(`    ${chosen.length} cases in ${ms.toFixed(0)} ms`);
  printPeerAgreement(chosen);
  if (process.env.SECRETS_CORPUS_BINARY !== '0') {
    const binary = new Map<string, Tally>();
    const records = await runBinaryCases(chosen);
    for (const c of chosen) {
      const seen = records.get(c.id);
      // A case whose record is missing counts as leaked (or changed): nothing proves otherwise.
      const outputs = seen ? [seen.command, seen.result] : [c.text];
      const kept = seen !== undefined && !outputs.some((o) => o.includes('[REDACTED'));
      const scored = score(c, outputs, kept);
      tally(binary, c, scored);
      if (process.env.SECRETS_CORPUS_SHOW === '1' && (scored.leaked || scored.changed))
        console.log(
          `    ${scored.leaked ? 'leaked' : 'changed'} ${c.id}: ${JSON.stringify(outputs).slice(0, 240)}`,
        );
    }
    printTallies('(b) real binary, args.command + result', binary);
    console.log(`    ${records.size} of ${chosen.length} cases have an outcome record`);
  }
}

/**
 * The benign cases are benign to one rule of one peer (gitleaks' per-rule tests run that rule alone);
 * run whole, the peers' own rule sets flag many of them. Counted here: the changed look-alikes that
 * gitleaks' full default rules or secretlint's recommended preset also flag, and those only warden's
 * own rules change.
 */
function printPeerAgreement(chosen: readonly CorpusCase[]): void {
  let changed = 0;
  let byPeer = 0;
  let benign = 0;
  for (const c of chosen) {
    if (c.expect !== 'keep') continue;
    benign++;
    if (redactString(c.text) === c.text) continue;
    changed++;
    if (findGitleaks(c.text, true).hits.length > 0 || findMaintained(c.text).length > 0) byPeer++;
  }
  const pct = (n: number) => `${((100 * n) / Math.max(1, benign)).toFixed(2)} %`;
  console.log(
    `    of the ${changed} changed look-alikes, ${byPeer} are flagged by gitleaks' full rules or secretlint's preset themselves; ${changed - byPeer} (${pct(changed - byPeer)}) by warden's own rules only`,
  );
}
