import { join } from 'node:path';
import type { ApprovalRequest, Approver, Decision, GrantScope } from '../protocol';
import type { AnyTool } from '../tools/types';
import { internalFields } from './specs';
import type { CallFacts } from '../policy/facts';
import type { PolicyResult } from '../policy/resolve';
import { canonicalJson, hashArgs } from './hash';
import { readExisting } from './preview';
import { callLine } from '../text/call-line';
import type { PreToolCall } from '../hooks/pre-tool-use';
import type { RecordBase } from './audit-record';
import type { ApprovalBroker, BrokerOutcome } from './broker';
import type { Asked, Caller, Checked, DecidedCall, ToolCall } from './gate-types';
import { type GrantStore, grantable, scopeCovers } from './grants';

// Small steps of the gate (gate.ts), kept apart so the sequence there reads top-down.

/**
 * The protected paths a command writes, as the fence resolved them: what an approved card lifts. A
 * package install (`npm ci`, `yarn add`, `pnpm i` …) writes its folder's `node_modules/.bin`, which the
 * sandbox otherwise keeps read-only (a shim there shadows what the person's own `npm run` calls).
 */
export function protectedWrites(facts: CallFacts): string[] {
  const out = new Set<string>();
  for (const w of facts.writes ?? []) if (w.verdict.ok && w.verdict.protectedBy) out.add(w.verdict.path);
  const cwd = facts.commandCwd?.ok ? facts.commandCwd.path : undefined;
  if (cwd && facts.command?.parts.some((p) => isPackageInstall(p.argv)))
    out.add(join(cwd, 'node_modules', '.bin'));
  return [...out];
}

const INSTALLS: Readonly<Record<string, ReadonlySet<string>>> = {
  npm: new Set([
    'install',
    'i',
    'ci',
    'add',
    'update',
    'up',
    'uninstall',
    'remove',
    'rm',
    'rebuild',
    'dedupe',
    'prune',
    'link',
  ]),
  pnpm: new Set(['install', 'i', 'add', 'update', 'up', 'remove', 'rm', 'rebuild', 'prune', 'link']),
  yarn: new Set(['install', 'add', 'remove', 'up', 'upgrade', 'link']),
  bun: new Set(['install', 'i', 'add', 'remove', 'update', 'link']),
};

/** `npm install …` and its kin (a bare `yarn` installs too). */
function isPackageInstall(argv: readonly string[]): boolean {
  const program = (argv[0] ?? '').split('/').pop() ?? '';
  const verbs = INSTALLS[program];
  if (!verbs) return false;
  const verb = argv.slice(1).find((w) => !w.startsWith('-'));
  return verb === undefined ? program === 'yarn' : verbs.has(verb);
}

/**
 * Who a policy verdict is credited to in the audit: a rule a person (or the managed policy) wrote, a
 * hook (`hook:<name>`), or the built-in policy.
 */
export function ruleApprover(policy: PolicyResult): Approver {
  const source = policy.rule.source;
  if (source === 'hook') return policy.rule.id.startsWith('hook:') ? (policy.rule.id as Approver) : 'policy';
  return source === 'user' || source === 'project' || source === 'managed' ? 'rule' : 'policy';
}

/** Whose refusal the model is told of: a hard guard's, a hook's, or the policy's. */
export function denialBy(policy: PolicyResult): 'guard' | 'hook' | 'policy' {
  return policy.rule.source === 'guard' ? 'guard' : policy.rule.source === 'hook' ? 'hook' : 'policy';
}

/** What the gate's audit lines say of a call judged by `policy`. */
export function recordBase(policy: PolicyResult, argsHash: string, call: ToolCall): RecordBase {
  return {
    decision: policy.decision,
    rule: policy.rule.id,
    risk: policy.risk.level,
    argsHash,
    ...(call.resumedFrom ? { resumedFrom: call.resumedFrom.requestId } : {}),
  };
}

/** The call as a PreToolUse hook is given it; undefined for the person's own commands and warden's own calls. */
export function hookedCall(
  call: ToolCall,
  caller: Caller,
  args: Record<string, unknown>,
  argsHash: string,
): PreToolCall | undefined {
  if (caller.origin === 'person' || call.internal) return undefined;
  const { agentId, agentName, signal } = caller;
  return { id: call.id, tool: call.tool, args, argsHash, agentId, agentName, signal };
}

/** A deep copy of parsed arguments (plain JSON data in practice); the original if it cannot be copied. */
export function copyArgs(args: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(args);
  } catch {
    return args;
  }
}

/**
 * The pre-image hash a write's token binds after an edit: the original one when the edit kept the
 * target, else the edited target as it is now (the person chose it; there is no earlier state to compare).
 */
export async function editedTargetHash(
  original: CallFacts,
  edited: CallFacts,
  fileHash: string,
): Promise<string> {
  const before = original.paths[0]?.verdict;
  const after = edited.paths[0]?.verdict;
  if (!after?.ok || (before?.ok && before.path === after.path)) return fileHash;
  return (await readExisting(after.path)).hash;
}

/** The arguments' hash, or 'unhashable' (the call is refused anyway; its audit line still needs one). */
export function safeHash(args: unknown): string {
  try {
    return hashArgs(args);
  } catch {
    return 'unhashable';
  }
}

/** An approve-all scope's identity, to compare with the scopes the gate offered. */
export function scopeKey(scope: Pick<Decision & { kind: 'approve_all' }, 'scope'>['scope']): string {
  return canonicalJson({ tool: scope.tool, match: scope.match, agents: scope.agents });
}

/**
 * The approve-all scope as the gate offered it on this card, with the person's time limit: a decision
 * names a scope by its identity (`scopeKey`), but its label and the rule it would be saved as are the
 * gate's — a decision dressed with a broader `ruleText` was stored, and saving the grant wrote that rule.
 */
export function offeredScope(request: ApprovalRequest, chosen: GrantScope): GrantScope {
  const key = scopeKey(chosen);
  const offered = request.grantOptions.find((s) => scopeKey(s) === key);
  if (!offered) throw new Error('an approve-all scope that was not offered');
  const { minutes: _offeredMinutes, ...rest } = offered;
  return chosen.minutes !== undefined ? { ...rest, minutes: chosen.minutes } : rest;
}

/** The first internal argument a call names (its raw arguments, object or JSON text), if any. Never throws. */
export function internalArgument(tool: AnyTool, raw: unknown): string | undefined {
  const names = internalFields(tool);
  if (names.length === 0) return undefined;
  let value = raw;
  try {
    if (typeof raw === 'string') value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  return names.find((name) => Object.hasOwn(value as object, name));
}

/** The arguments a running decision runs: the accepted edit, the approved plan's steps, or the model's own. */
export function finalArgs(
  args: Record<string, unknown>,
  decision: Decision,
  acceptedEdit?: Record<string, unknown>,
): { args: Record<string, unknown>; edited: boolean } {
  if (decision.kind === 'edit') {
    if (!acceptedEdit) throw new Error('an edit decision without an accepted edit');
    return { args: acceptedEdit, edited: canonicalJson(acceptedEdit) !== canonicalJson(args) };
  }
  if (decision.kind === 'approve_plan') {
    const steps = decision.steps.map(String);
    const edited = canonicalJson(steps) !== canonicalJson(args.steps);
    return { args: { ...args, steps }, edited };
  }
  return { args, edited: false };
}

/** The tool's own line for parsed arguments; the generic line when it has none or it throws. */
export function summaryOf(tool: AnyTool, args: unknown): string {
  try {
    if (tool.summary) return String(tool.summary(args as never));
  } catch {
    // A summary is decoration: the generic line stands in.
  }
  return callLine(args);
}

/** Tells the session's feedback what a person (or their grant) decided; a hook's answer is not theirs. Contract: never throws. */
export function tellDecided(
  onDecided: ((decided: DecidedCall) => void) | undefined,
  outcome: BrokerOutcome,
  checked: Checked,
  caller: Caller,
  accepted?: Record<string, unknown>,
): void {
  if (outcome.kind !== 'decided' || outcome.approver.startsWith('hook:')) return;
  try {
    onDecided?.(decidedCall(outcome.decision, checked, caller, accepted));
  } catch {
    // Feedback is advice: its failure must not change a decision.
  }
}

/** What the session's feedback hears of a person's decision; `edited` only when the edit changed the call. */
export function decidedCall(
  decision: Decision,
  checked: Checked,
  caller: Caller,
  accepted?: Record<string, unknown>,
): DecidedCall {
  const { tool, args, facts, policy } = checked;
  const edited =
    decision.kind === 'edit' && accepted && canonicalJson(accepted) !== canonicalJson(args)
      ? accepted
      : undefined;
  // The arguments are parsed already: the summary takes them as they are.
  const summary = summaryOf(tool, args);
  return { decision, tool: tool.name, facts, policy, caller, args, ...(edited ? { edited } : {}), summary };
}

/** An approve-all: the grant is kept, and every waiting request it covers is approved by it (a plan's once it is in force). */
export function grantAndDrain(
  grants: GrantStore,
  broker: ApprovalBroker,
  asked: ReadonlyMap<string, Asked>,
  scope: GrantScope,
  /** A card only a person may answer (a managed ask, two people): no grant drains it. */
  personOnly: (policy: Asked['policy'], tool: string) => boolean,
): void {
  const grant = grants.add(scope);
  // A plan grant drains nothing before its plan is in force.
  if (!grants.planActive(grant)) return;
  broker.approveWhere((r) => {
    const a = asked.get(r.id);
    // A card a PreToolUse hook asked for waits for the person, whatever a grant covers.
    if (a === undefined || a.policy.rule.source === 'hook' || personOnly(a.policy, r.tool)) return false;
    return grantable(a.facts, a.policy.risk) && scopeCovers(grant, a.facts, a.caller);
  });
}
