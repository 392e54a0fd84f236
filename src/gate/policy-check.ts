/**
 * Steps 1–3 of the gate for one command, and nothing after them: the hard guards, the policy (rules,
 * mode, risk) and a session grant that would cover it, told as a `PolicyReport`. Nothing runs, nothing
 * is asked, nothing is audited — `warden policy test` and `/policy test` read it.
 */
import { DEFAULT_RULES } from '../policy/defaults';
import { type FactDeps, gatherFacts } from '../policy/facts';
import type { PolicyReport } from '../policy/policy-report';
import type { RuleRef } from '../protocol';
import { type PolicyContext, resolvePolicy } from '../policy/resolve';
import type { LoadedRule } from '../policy/rules';
import { parseToolArgs } from '../tools/parse-args';
import type { AnyTool } from '../tools/types';
import { describeRule } from '../trust/describe';
import { type GrantCaller, type GrantStore, grantable, scopeCovers } from './grants';
import { personOnly, type TwoPersonRule } from './two-person';

export type PolicyCheck = { ok: true; report: PolicyReport } | { ok: false; error: string };

/** The tool that runs shell commands (the one whose arguments name a command). */
export function commandTool(tools: readonly AnyTool[]): AnyTool | undefined {
  return tools.find((t) => t.guarded?.command !== undefined);
}

/**
 * What the gate would decide for `tool` running `command` (in `cwd`, relative to the project).
 * `grants`: this session's, so a call one covers reads "allowed by a grant". `held`: the project's
 * allow rules that do not count (untrusted files). Contract: never throws; bad arguments are an error.
 */
export function checkCommand(
  tool: AnyTool,
  input: { command: string; cwd?: string },
  d: {
    deps: FactDeps;
    policy: PolicyContext;
    grants?: { store: GrantStore; caller: GrantCaller };
    held?: number;
    /** User and project rules that do not count: the managed config allows its own only. */
    ignored?: number;
    twoPerson?: (() => TwoPersonRule | undefined) | undefined;
  },
): PolicyCheck {
  const field = tool.guarded?.command;
  if (!field) return { ok: false, error: `${tool.name} runs no command` };
  if (input.command.trim() === '') return { ok: false, error: 'the command is empty' };
  const raw: Record<string, unknown> = { [field]: input.command };
  const cwdField = tool.guarded?.cwd;
  if (input.cwd !== undefined && cwdField) raw[cwdField] = input.cwd;
  try {
    const parsed = parseToolArgs(tool, raw);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const facts = gatherFacts(tool, parsed.args as Record<string, unknown>, d.deps);
    const policy = resolvePolicy(facts, d.policy);
    const verdict = facts.command;
    const report: PolicyReport = {
      tool: tool.name,
      command: input.command,
      verdict: policy.decision,
      decidedBy: decidedBy(policy.rule, d.policy.rules),
      risk: policy.risk,
      why: policy.explanation,
      parts: verdict?.parts.map((p) => p.text) ?? [],
      notes: verdict ? [...(verdict.kind === 'cannot_judge' ? [verdict.reason] : []), ...verdict.notes] : [],
      mode: d.policy.mode,
      sandboxed: facts.sandboxed,
      ...(d.held ? { heldRules: d.held } : {}),
      ...(d.ignored ? { ignoredRules: d.ignored } : {}),
    };
    // Step 3: a grant of this session covers what would ask (never a deny, never high risk, never a
    // managed ask or a call that needs two people).
    const g = d.grants;
    const grantFree = personOnly(policy, tool.name, d.twoPerson?.());
    if (policy.decision === 'ask' && g && !grantFree && grantable(facts, policy.risk)) {
      const grant = g.store.list().find((s) => g.store.planActive(s) && scopeCovers(s, facts, g.caller));
      if (grant)
        return {
          ok: true,
          report: {
            ...report,
            verdict: 'allow',
            decidedBy: { kind: 'grant', id: grant.id, source: 'grant', text: grant.label },
            why: `${policy.explanation} A grant you gave this session covers it: ${grant.label}.`,
          },
        };
    }
    return { ok: true, report };
  } catch (err) {
    return { ok: false, error: `the check failed: ${(err as Error).message}` };
  }
}

/**
 * The gate's `/policy test`: waits for what a command call would wait for (the sandbox verdict, the
 * command parser), then `checkCommand` with the session's grants. Contract: never rejects.
 */
export async function explainCommand(
  tools: readonly AnyTool[],
  command: string,
  d: {
    deps: FactDeps;
    policy: PolicyContext;
    grants: GrantStore;
    caller: GrantCaller;
    held?: number | undefined;
    twoPerson?: (() => TwoPersonRule | undefined) | undefined;
    ready?: (() => Promise<void>) | undefined;
    loadCommandGuard?: (() => Promise<void>) | undefined;
  },
): Promise<PolicyCheck> {
  const tool = commandTool(tools);
  if (!tool) return { ok: false, error: 'no tool runs commands' };
  try {
    await d.ready?.();
    await d.loadCommandGuard?.();
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  const grants = { store: d.grants, caller: d.caller };
  return checkCommand(
    tool,
    { command },
    { deps: d.deps, policy: d.policy, grants, twoPerson: d.twoPerson, ...(d.held ? { held: d.held } : {}) },
  );
}

function decidedBy(rule: RuleRef, rules: readonly LoadedRule[]): PolicyReport['decidedBy'] {
  // A hook tightens a call at the gate, after the policy this reports: it never decides here.
  if (rule.source === 'guard' || rule.source === 'hook')
    return { kind: 'guard', id: rule.id, source: rule.source };
  if (rule.source === 'mode') return { kind: 'mode', id: rule.id, source: rule.source };
  if (rule.source === 'grant') return { kind: 'grant', id: rule.id, source: rule.source };
  const loaded = [...rules, ...DEFAULT_RULES].find((r) => r.id === rule.id && r.source === rule.source);
  return {
    kind: 'rule',
    id: rule.id,
    source: rule.source,
    ...(loaded?.file ? { file: loaded.file } : {}),
    ...(loaded ? { text: describeRule(loaded).replace(/ — [^—]*$/, '') } : {}),
  };
}
