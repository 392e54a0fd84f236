// Secrets against the peers' own corpora (issue 28): gitleaks' rule examples, detect tests and
// testdata and secretlint's rule fixtures, read from ../shared/peer-corpus/secrets.json (never copied
// into the repository). Prints leaked / total and changed / benign, by family, for
// (a) the redactor on plain text, and
// (b) the real binary: a headless run whose scripted model (a fake server on 127.0.0.1) runs
//     `printf '%s\n' '<text>'` for each case; the audit record's `args.command` and `result` must
//     not hold the secret (and, for a benign text, hold no redaction mark).
// SECRETS_CORPUS_BINARY=0 skips (b); SECRETS_CORPUS_LIMIT=n measures the first n cases only.
import { redactString } from '../src/audit/redact';
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
    tally(plain, c, score(c, [out], out === c.text));
  }
  const ms = performance.now() - started;
  printTallies('(a) redactor, plain text', plain);
  console.log(`    ${chosen.length} cases in ${ms.toFixed(0)} ms`);
  if (process.env.SECRETS_CORPUS_BINARY !== '0') {
    const binary = new Map<string, Tally>();
    const records = await runBinaryCases(chosen);
    for (const c of chosen) {
      const seen = records.get(c.id);
      // A case whose record is missing counts as leaked (or changed): nothing proves otherwise.
      const outputs = seen ? [seen.command, seen.result] : [c.text];
      const kept = seen !== undefined && !outputs.some((o) => o.includes('[REDACTED'));
      tally(binary, c, score(c, outputs, kept));
    }
    printTallies('(b) real binary, args.command + result', binary);
    console.log(`    ${records.size} of ${chosen.length} cases have an outcome record`);
  }
}
