import type { Mode, Risk, RuleRef } from '../protocol';
import { DEFAULT_RULES, INTERACTIVE_TOOLS } from './defaults';
import { type CallFacts, protectedPath } from './facts';
import { hardGuardDenial } from './hard-guards';
import { ruleMatches } from './matchers';
import { assessRisk, maxRisk } from './risk';
import { type LoadedRule, type PolicyDecision, strictest } from './rules';

export type PolicyContext = { rules: readonly LoadedRule[]; mode: Mode };

export type PolicyResult = {
  decision: PolicyDecision;
  rule: RuleRef;
  risk: Risk;
  /** One sentence a person understands. */
  explanation: string;
};

/**
 * Steps 1–2 of the gate as a pure function: hard guards, then rules (user and project rules
 * first — deny beats ask beats allow among them — else the built-in default), then the mode.
 * Contract: pure, never throws for valid facts.
 */
export function resolvePolicy(facts: CallFacts, ctx: PolicyContext): PolicyResult {
  const risk = assessRisk(facts);
  const denial = hardGuardDenial(facts);
  if (denial) {
    return { decision: 'deny', rule: { id: denial.ruleId, source: 'guard' }, risk: { level: 'high', reasons: [denial.reason] }, explanation: denial.reason };
  }
  const rule = pickRule(facts, ctx.rules);
  if (rule.risk) risk.level = maxRisk(risk.level, rule.risk);
  const ref: RuleRef = { id: rule.id, source: rule.source };
  const said = rule.message ?? `${rule.source} rule ${rule.id} says ${rule.decision}`;
  const base: PolicyResult = { decision: rule.decision, rule: ref, risk, explanation: `${capitalise(said)}.` };
  if (base.decision === 'deny') return base;
  if (INTERACTIVE_TOOLS.has(facts.tool)) return { ...base, decision: 'ask' };
  return applyMode(base, facts, ctx.mode);
}

function pickRule(facts: CallFacts, rules: readonly LoadedRule[]): LoadedRule {
  const own = strictest(rules.filter((r) => ruleMatches(r, facts)));
  if (own) return own;
  // Defaults are ordered specific-first; the last is a catch-all, so one always matches.
  return DEFAULT_RULES.find((r) => ruleMatches(r, facts)) as LoadedRule;
}

function applyMode(base: PolicyResult, facts: CallFacts, mode: Mode): PolicyResult {
  const guarded = protectedPath(facts);
  // Talking to the person (plans, questions, sub-agents) changes nothing by itself.
  const mutating = facts.kind === 'write' || facts.kind === 'execute';
  if (mode === 'plan' && mutating) {
    return { ...base, decision: 'deny', rule: { id: 'mode-plan', source: 'mode' }, explanation: 'Plan mode is read-only: propose a plan instead of changing anything.' };
  }
  // Protected paths always reach a person, whatever a rule or mode allows.
  if (guarded && mutating) {
    return base.decision === 'allow' ? { ...base, decision: 'ask', explanation: `${base.explanation} ${guarded} is protected, so a person decides.` } : base;
  }
  // Modes relax only the built-in asks: an ask rule the person wrote still asks.
  if (base.decision !== 'ask' || base.rule.source !== 'builtin') return base;
  if (mode === 'auto-edit' && facts.tool === 'write_file') {
    return { ...base, decision: 'allow', rule: { id: 'mode-auto-edit', source: 'mode' }, explanation: 'auto-edit mode allows writes inside the project.' };
  }
  if (mode === 'auto') {
    if (base.risk.level === 'high') return { ...base, explanation: `${base.explanation} High risk still asks in auto mode.` };
    if (facts.command && !facts.sandboxed) return { ...base, explanation: `${base.explanation} Without a sandbox every command asks.` };
    return { ...base, decision: 'allow', rule: { id: 'mode-auto', source: 'mode' }, explanation: 'auto mode allows what would ask, below high risk.' };
  }
  return base;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
