import type { Mode, Risk, RuleRef } from '../protocol';
import { builtinRuleFor, DEFAULT_RULES } from './defaults';
import { type CallFacts, protectedPath } from './facts';
import { hardGuardDenial } from './guards/hard-guards';
import { argsMatch, toolMatches } from './matchers';
import { assessRisk, maxRisk } from './risk';
import type { LoadedRule, PolicyDecision } from './rules';

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
    return {
      decision: 'deny',
      rule: { id: denial.ruleId, source: 'guard' },
      risk: { level: 'high', reasons: [denial.reason] },
      explanation: denial.reason,
    };
  }
  const rule = pickRule(facts, ctx.rules);
  if (rule.risk) risk.level = maxRisk(risk.level, rule.risk);
  const ref: RuleRef = { id: rule.id, source: rule.source };
  const base: PolicyResult = { decision: rule.decision, rule: ref, risk, explanation: explain(rule) };
  if (base.decision === 'deny') return base;
  if (facts.interactive) return { ...base, decision: 'ask' };
  return applyMode(base, facts, ctx.mode);
}

/**
 * The strictest own rule that matches (deny beats ask beats allow); of two as strict, the first — but
 * a managed rule before any other, so a user's ask never stands in for a managed ask (which no grant
 * may cover). Else the built-in default.
 */
function pickRule(facts: CallFacts, rules: readonly LoadedRule[]): LoadedRule {
  let own: LoadedRule | undefined;
  for (const rule of rulesForTool(rules, facts.tool)) {
    if (own && !stricter(rule, own)) continue;
    if (argsMatch(rule, facts)) own = rule;
  }
  if (own) return own;
  return builtinRuleFor(facts, rulesForTool(DEFAULT_RULES, facts.tool));
}

function stricter(rule: LoadedRule, than: LoadedRule): boolean {
  const by = SEVERITY[rule.decision] - SEVERITY[than.decision];
  return by > 0 || (by === 0 && rule.source === 'managed' && than.source !== 'managed');
}

const SEVERITY: Record<PolicyDecision, number> = { allow: 0, ask: 1, deny: 2 };

type ToolIndex = { rules: LoadedRule[]; tools: string[]; byTool: Map<string, LoadedRule[]> };
const indexes = new WeakMap<readonly LoadedRule[], ToolIndex>();

/**
 * The rules whose tool name or glob covers `tool`, in their order. Memoised per rules array (a
 * session replaces the array when the policy reloads); the memo is dropped when the array's
 * rules or their tool patterns changed in place, so it can never answer for other rules.
 */
function rulesForTool(rules: readonly LoadedRule[], tool: string): readonly LoadedRule[] {
  if (rules.length === 0) return rules;
  let index = indexes.get(rules);
  if (!index || !sameRules(index, rules)) {
    index = { rules: [...rules], tools: rules.map((r) => r.tool), byTool: new Map() };
    indexes.set(rules, index);
  }
  let list = index.byTool.get(tool);
  if (!list) {
    list = rules.filter((r) => toolMatches(r.tool, tool));
    index.byTool.set(tool, list);
  }
  return list;
}

function sameRules(index: ToolIndex, rules: readonly LoadedRule[]): boolean {
  if (index.rules.length !== rules.length) return false;
  for (let i = 0; i < rules.length; i++)
    if (index.rules[i] !== rules[i] || index.tools[i] !== rules[i]?.tool) return false;
  return true;
}

function applyMode(base: PolicyResult, facts: CallFacts, mode: Mode): PolicyResult {
  const guarded = protectedPath(facts);
  // Talking to the person (plans, questions, sub-agents) changes nothing by itself.
  const mutating = facts.kind === 'write' || facts.kind === 'execute';
  if (mode === 'plan' && mutating) {
    return {
      ...base,
      decision: 'deny',
      rule: { id: 'mode-plan', source: 'mode' },
      explanation: 'Plan mode is read-only: propose a plan instead of changing anything.',
    };
  }
  // Hosts a command may reach: a person approves them on the card, unless their own config lists them
  // all (`sandbox.network`); no rule, mode or grant stands in for that.
  const unlisted = facts.network?.unlisted ?? [];
  if (unlisted.length > 0) {
    const hosts = unlisted.map((e) => e.text).join(', ');
    return base.decision === 'allow'
      ? {
          ...base,
          decision: 'ask',
          explanation: `${base.explanation} It asks to reach ${hosts}, so a person decides.`,
        }
      : {
          ...base,
          explanation: `${base.explanation} It asks to reach ${hosts}, which only a person approves.`,
        };
  }
  // Protected paths always reach a person, whatever a rule or mode allows.
  if (guarded && mutating) {
    return base.decision === 'allow'
      ? {
          ...base,
          decision: 'ask',
          explanation: `${base.explanation} ${guarded} is protected, so a person decides.`,
        }
      : base;
  }
  // A credential file's content would leave with the next request: a person sees that first, always.
  if (facts.secret !== undefined && base.decision === 'allow') {
    return {
      ...base,
      decision: 'ask',
      explanation: `${base.explanation} ${facts.secret} holds credentials, so a person decides.`,
    };
  }
  // Modes relax only the built-in asks: an ask rule the person wrote still asks.
  if (base.decision !== 'ask' || base.rule.source !== 'builtin') return base;
  if (mode === 'auto-edit' && facts.autoEditable && base.risk.level === 'high') {
    return { ...base, explanation: `${base.explanation} High risk still asks in auto-edit mode.` };
  }
  if (mode === 'auto-edit' && facts.autoEditable) {
    return {
      ...base,
      decision: 'allow',
      rule: { id: 'mode-auto-edit', source: 'mode' },
      explanation: 'auto-edit mode allows writes inside the project.',
    };
  }
  if (mode === 'auto') {
    if (base.risk.level === 'high')
      return { ...base, explanation: `${base.explanation} High risk still asks in auto mode.` };
    if (facts.command && !facts.sandboxed)
      return { ...base, explanation: `${base.explanation} Without a sandbox every command asks.` };
    // MCP tools are opaque: only a rule the person wrote (or their approve-all) lets one run unasked.
    if (facts.mcpServer)
      return {
        ...base,
        explanation: `${base.explanation} warden cannot see what an MCP tool does, so auto mode asks too.`,
      };
    return {
      ...base,
      decision: 'allow',
      rule: { id: 'mode-auto', source: 'mode' },
      explanation: 'auto mode allows what would ask, below high risk.',
    };
  }
  return base;
}

const explained = new WeakMap<LoadedRule, { said: string; text: string }>();

/** "Writing a file asks by default." — from the rule's message, memoised per rule and message. */
function explain(rule: LoadedRule): string {
  const said = rule.message ?? `${rule.source} rule ${rule.id} says ${rule.decision}`;
  const memo = explained.get(rule);
  if (memo?.said === said) return memo.text;
  const text = `${capitalise(said)}.`;
  explained.set(rule, { said, text });
  return text;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
