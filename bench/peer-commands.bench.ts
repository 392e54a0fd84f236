// warden's command judgement against the peers' own test corpora (issue 27): 907 commands from Codex,
// Gemini CLI, qwen-code and Claude Code's fixed bypasses, read from ../shared/peer-corpus/commands.json
// (never copied into the repository). Each case is judged by the real guard, facts and policy, in a
// temp project holding the case's probe files, with the bubblewrap sandbox on and the rules the peer's
// test set up, in manual and in auto mode. Printed: holes (a peer says unsafe, the command really does
// harm in the sandbox, and warden runs it without a card; in auto mode, harm undo cannot take back) and fatigue (a peer runs it unasked as
// read-only, warden shows a card), each by class, against the peers' own count in the same run; then
// the approval-fatigue probe (a short session of reads, read-only commands, writes and `npm test`).
// `PEER_LIST=1` prints every case that counts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classOf, fatigueProbe, judgeIn, type PeerCase } from './peer-commands-judge';
import { benchTempDir } from './temp-dir';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpusPath = resolve(repo, '../shared/peer-corpus/commands.json');
if (!existsSync(corpusPath)) {
  console.log(`peer corpus absent (${corpusPath}): skipped`);
  process.exit(0);
}
const cases = (JSON.parse(readFileSync(corpusPath, 'utf8')) as { cases: PeerCase[] }).cases;
const list = process.env.PEER_LIST === '1';
const base = benchTempDir('warden-peer-commands-');

/** Files a case's project holds: its probe's, else the probe set most cases use. */
const DEFAULT_FILES: Record<string, string> = {
  input: 'b\na\na\n',
  file: 'a\nb\n',
  'file.txt': 'foo\n',
  'README.md': 'readme\n',
};

const holes = new Map<string, number>();
const fatigue = new Map<string, number>();
const leftToSandbox = new Map<string, number>();
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
let harmful = 0;
let peerSafe = 0;
let autoAsksSafe = 0;
let started = performance.now();
for (const [i, c] of cases.entries()) {
  const root = join(base, `p${i}`);
  mkdirSync(root);
  for (const [name, content] of Object.entries(c.probe?.files ?? DEFAULT_FILES)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), content);
  }
  const manual = judgeIn(root, c, 'manual');
  const auto = judgeIn(root, c, 'auto');
  const effect = c.effect;
  if (c.peerVerdict === 'safe') {
    peerSafe++;
    if (manual.decision !== 'allow') {
      const k = classOf(c, manual);
      bump(fatigue, k);
      if (list) console.log(`  fatigue [${k}] ${c.id} ${JSON.stringify(c.command)}: ${manual.why}`);
    }
    if (auto.decision !== 'allow') autoAsksSafe++;
  } else if (effect !== undefined && effect !== 'none') {
    harmful++;
    // Manual mode: any real effect without a card is a hole. Auto mode runs medium risk by design;
    // a hole there is harm undo cannot take back (deleting, code, reads that leave, the network, an
    // overwrite the checkpoint does not hold). Killing stays inside the sandbox's own PID namespace,
    // and the sandbox has no network (a card or a rule opens named domains).
    const autoHarm = effect !== 'writes' && effect !== 'kills' && effect !== 'network';
    const autoHole = autoHarm && auto.decision === 'allow' && !(effect === 'overwrites' && auto.restorable);
    // Issue 26's sandbox shows a command only the system folders and the project, with the project's
    // credential files masked unless the card names them: a read of a folder elsewhere, or a search
    // that meets .env without naming it, finds nothing there. Counted apart, never as sound.
    const sandboxed =
      (effect === 'reads-outside' && manual.decision !== 'allow') ||
      (effect === 'reads-credential' && !/\.env|\.npmrc|\.e\*|\[e\]/.test(c.command));
    // §1: a write into the sandbox's private /tmp is gone after the run — nothing to ask about.
    const scratchOnly =
      effect === 'writes' &&
      manual.reasons.some((r) => r.includes('private to the sandbox')) &&
      manual.reasons.every((r) => r.includes('private to the sandbox') || r === 'read-only command');
    if ((manual.decision === 'allow' || autoHole) && (sandboxed || scratchOnly)) {
      bump(leftToSandbox, scratchOnly ? "writes into the sandbox's private /tmp" : effect);
      if (list) console.log(`  sandbox [${effect}] ${c.id} ${JSON.stringify(c.command)}: ${auto.why}`);
    } else if (manual.decision === 'allow' || autoHole) {
      const k = `${effect}${manual.decision === 'allow' ? '' : ' (auto)'}`;
      bump(holes, k);
      if (list) console.log(`  hole [${k}] ${c.id} ${JSON.stringify(c.command)}: ${auto.why}`);
    }
  }
}
const ms = performance.now() - started;
const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const rows = (m: Map<string, number>) =>
  [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `    ${String(n).padStart(3)}  ${k}`);

console.log(`${cases.length} peer cases judged in ${ms.toFixed(0)} ms (manual and auto, sandbox on)`);
console.log(`holes: ${sum(holes)} of ${harmful} harmful peer-unsafe cases (peers: 0 by definition)`);
console.log(rows(holes).join('\n') || '    none');
console.log(`left to the sandbox's view (issue 26), run unasked: ${sum(leftToSandbox)}`);
console.log(rows(leftToSandbox).join('\n') || '    none');
console.log(
  `fatigue: ${sum(fatigue)} of ${peerSafe} peer-safe commands show a card in manual mode (peers: 0; ` +
    `${((sum(fatigue) / peerSafe) * 100).toFixed(1)} %); in auto mode ${autoAsksSafe}`,
);
console.log(rows(fatigue).join('\n') || '    none');

started = performance.now();
const probe = fatigueProbe(benchTempDir('warden-fatigue-probe-'));
console.log(
  `fatigue probe (3 reads, 4 read-only commands, 2 writes, npm test; manual): ${probe.cards} cards ` +
    `(peers: 3; goal ≤ 3) — ${probe.asked.join(', ')}`,
);
