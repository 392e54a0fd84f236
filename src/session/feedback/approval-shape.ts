/**
 * The "shape" of an approved call: the one allow rule that would cover exactly this
 * kind of call, when there is a safe one. A plain command (one part, literal words, writing
 * nothing) becomes an exact command rule (`"command": "npm test"`, no `*`); a file write under a
 * folder becomes a folder glob (`"path": "docs/**"`). Nothing else has a shape: high risk,
 * protected paths, credentials, interactive or MCP tools, compound or non-plain commands, writes at
 * the project's top level, hosts a card named, and calls a rule the person wrote already decides.
 */
import { redactString } from '../../audit/redact';
import { type CallFacts, protectedPath } from '../../policy/facts';
import { commandCoveredBy, isPlainPart, parseCommandPrefix } from '../../policy/rule-command';
import type { PolicyResult } from '../../policy/resolve';
import { type PolicyRule, RuleSchema } from '../../policy/rules';

/** `kind`: which threshold counts it. `key`: equal for calls one rule covers alike. */
export type ApprovalShape = { kind: 'command' | 'path'; key: string; label: string; rule: PolicyRule };

/** Same plainness as a command-prefix grant (grants.ts): words that read back as themselves. */
const PLAIN_TOKEN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A folder name as a literal glob (`app/[id]` must not also cover `app/i`). */
function escapeGlob(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@]/g, '\\$&');
}

/** The rule a person could save for this approved call, or undefined. Contract: pure, never throws. */
export function approvalShape(facts: CallFacts, policy: PolicyResult): ApprovalShape | undefined {
  if (policy.risk.level === 'high' || policy.decision !== 'ask') return undefined;
  // Only a built-in ask (or a mode's) would give way to a saved allow rule; a person's own ask rule wins.
  if (policy.rule.source !== 'builtin' && policy.rule.source !== 'mode') return undefined;
  if (facts.interactive || facts.mcpServer || facts.secret !== undefined || protectedPath(facts))
    return undefined;
  // A rule would not cover the hosts the card named (only a person or sandbox.network does): it would still ask.
  if ((facts.network?.unlisted.length ?? 0) > 0) return undefined;
  const shape = facts.command ? commandShape(facts) : pathShape(facts);
  if (!shape || !RuleSchema.safeParse(shape.rule).success) return undefined;
  return shape;
}

function commandShape(facts: CallFacts): ApprovalShape | undefined {
  const verdict = facts.command;
  if (verdict?.kind !== 'ok' || verdict.parts.length !== 1) return undefined;
  const part = verdict.parts[0];
  if (!part || !isPlainPart(part) || (part.writes?.length ?? 0) > 0) return undefined;
  if (!part.argv.every((w) => PLAIN_TOKEN.test(w))) return undefined;
  const command = part.argv.join(' ');
  // A command holding a secret (`mysql -pX app`) has no shape: the rule would write it to
  // policy.json in the clear (red-team finding; grants.ts refuses the same prefix).
  if (redactString(command) !== command) return undefined;
  // The rule must read back as exactly this call, and cover it, before it is ever offered.
  if (!commandCoveredBy(verdict, parseCommandPrefix(command))) return undefined;
  const rule: PolicyRule = { tool: facts.tool, when: { command }, decision: 'allow' };
  return {
    kind: 'command',
    key: `${facts.tool}\u0000command\u0000${command}`,
    label: `${facts.tool} \`${command}\``,
    rule,
  };
}

function pathShape(facts: CallFacts): ApprovalShape | undefined {
  if (facts.kind !== 'write' || facts.paths.length === 0) return undefined;
  const dirs = new Set<string>();
  for (const { verdict } of facts.paths) {
    if (!verdict.ok) return undefined;
    dirs.add(verdict.relative.split('/').slice(0, -1).join('/'));
  }
  const [dir] = [...dirs];
  if (dirs.size !== 1 || !dir) return undefined;
  const glob = `${escapeGlob(dir)}/**`;
  const rule: PolicyRule = { tool: facts.tool, when: { path: glob }, decision: 'allow' };
  return {
    kind: 'path',
    key: `${facts.tool}\u0000path\u0000${glob}`,
    label: `${facts.tool} under ${glob}`,
    rule,
  };
}
