/**
 * What the gate would decide for a call, told without running or asking anything: `warden policy
 * test` and `/policy test` print it (like `codex execpolicy check`). Pure data and its text form.
 */
import type { Mode, Risk, RuleSource } from '../protocol';
import { sanitizeText } from '../text/sanitize';

/** The gate's answer for one call, as far as it can be known before a person is asked. */
export type PolicyReport = {
  tool: string;
  /** The command as given. */
  command: string;
  /** `allow`: runs without asking; `ask`: a card; `deny`: refused, nobody can approve it. */
  verdict: 'allow' | 'ask' | 'deny';
  /** What decides: a hard guard, a rule (built-in, yours, the project's), the mode, or a grant of this session. */
  decidedBy: {
    kind: 'guard' | 'rule' | 'mode' | 'grant';
    id: string;
    source: RuleSource;
    /** The policy file the rule is in (yours or the project's). */
    file?: string;
    /** The rule in one line (`allow execute_command when command "npm test *"`), or the grant's scope. */
    text?: string;
  };
  risk: Risk;
  /** Why, in one or two sentences. */
  why: string;
  /** The command's simple parts as the command guard split and unwrapped them. */
  parts: string[];
  /** What the guard noticed beyond the parts (a write, an expansion it cannot see through). */
  notes: string[];
  mode: Mode;
  sandboxed: boolean;
  /** The project's allow rules held back because its files are not trusted (they would not count). */
  heldRules?: number;
  /** Your and the project's rules that do not count: the managed config allows its own only. */
  ignoredRules?: number;
};

/** The report as lines for a terminal; every string from the command or a file is made safe to print. */
export function formatPolicyReport(r: PolicyReport): string {
  const safe = (s: string) => sanitizeText(s);
  const by = r.decidedBy;
  const where =
    by.kind === 'grant'
      ? `a grant of this session (${safe(by.text ?? by.id)})`
      : by.kind === 'guard'
        ? `the hard guard ${safe(by.id)} (nobody can approve past it)`
        : by.kind === 'mode'
          ? `the ${r.mode} mode (${safe(by.id)})`
          : `${by.source === 'builtin' ? 'built-in' : by.source} rule ${safe(by.id)}${by.file ? ` in ${safe(by.file)}` : ''}${by.source === 'managed' ? ' (locked: nothing below loosens it)' : ''}`;
  const verdict = {
    allow: 'ALLOW — runs without asking',
    ask: 'ASK — a card asks you',
    deny: 'DENY — refused',
  };
  const lines = [
    `${safe(r.command)}`,
    `  verdict   ${verdict[r.verdict]}`,
    `  decided   by ${where}`,
    ...(by.text && by.kind === 'rule' ? [`  rule      ${safe(by.text)}`] : []),
    `  risk      ${r.risk.level}${r.risk.reasons.length ? `: ${r.risk.reasons.map(safe).join('; ')}` : ''}`,
    `  why       ${safe(r.why)}`,
  ];
  if (r.parts.length > 1) lines.push(`  parts     ${r.parts.map((p) => safe(p)).join('  ·  ')}`);
  for (const note of r.notes) lines.push(`  note      ${safe(note)}`);
  lines.push(
    `  context   mode ${r.mode} · ${r.sandboxed ? 'commands sandboxed (bubblewrap)' : 'no sandbox: every command asks'}`,
  );
  if (r.heldRules)
    lines.push(
      `  held      ${r.heldRules} allow rule(s) of the project's .warden/policy.json do not count: its files are not trusted`,
    );
  if (r.ignoredRules)
    lines.push(
      `  ignored   ${r.ignoredRules} rule(s) of yours and the project's do not count: the managed config allows its own only`,
    );
  return lines.join('\n');
}
