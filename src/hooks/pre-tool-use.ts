/**
 * `PreToolUse`: the hooks that judge a call after the guards and the policy, before anything runs or
 * anyone is asked. They may only tighten the policy's verdict: `deny` (or exit 2) refuses the call;
 * `ask` turns an allow (a rule's, the mode's, a grant's) into a card for a person; `allow` changes
 * nothing — a call the policy asks for still asks (Claude Code would skip its prompt; warden does not
 * let a program loosen the gate). A hook that fails (exit code, timeout, bad JSON) refuses the call
 * (`hook_failed`). Hard guards and deny rules come first: a call they refuse never reaches a hook.
 */
import type { PolicyResult } from '../policy/resolve';
import { strictest } from './hook-output';
import type { HookSet } from './hook-set';

/** The call a PreToolUse hook judges. */
export type PreToolCall = {
  /** The model's tool-call id (Claude Code's `tool_use_id`). */
  id: string;
  tool: string;
  args: Record<string, unknown>;
  argsHash: string;
  agentId: string;
  agentName: string;
  signal?: AbortSignal;
};

/**
 * The policy's verdict after the PreToolUse hooks, or undefined when no hook applies (nothing to wait
 * for). Contract: never rejects; the result is never looser than `policy`.
 */
export function preToolUse(
  set: HookSet,
  call: PreToolCall,
  policy: PolicyResult,
): Promise<PolicyResult> | undefined {
  if (policy.decision === 'deny' || !set.has('PreToolUse')) return undefined;
  const hooks = set.matching('PreToolUse', set.namesOf(call.tool));
  if (hooks.length === 0) return undefined;
  const input = {
    ...set.common('PreToolUse'),
    ...set.toolFields(call.tool, call.args),
    tool_use_id: call.id,
    request_id: null,
    args_hash: call.argsHash,
    risk: policy.risk.level,
    risk_reasons: policy.risk.reasons,
    rule: policy.rule,
    policy_decision: policy.decision,
    agent: { id: call.agentId, name: call.agentName },
  };
  return set.run(hooks, input, call.signal).then(
    (answers) => {
      const pick = strictest(answers.map((a) => a.verdict));
      const hook = answers.find((a) => a.verdict === pick)?.hook;
      if (!pick || !hook) return policy;
      const rule = { id: `hook:${hook.name}`, source: 'hook' as const };
      const who = `The PreToolUse hook ${hook.name}`;
      if (pick.kind === 'failed')
        return {
          ...policy,
          decision: 'deny',
          rule,
          explanation: `hook_failed (${pick.detail}): ${who} failed: ${pick.reason}. A hook that fails refuses the call.`,
        };
      if (pick.kind === 'deny')
        return { ...policy, decision: 'deny', rule, explanation: `${who} denied the call: ${pick.reason}` };
      if (pick.kind === 'ask')
        return {
          ...policy,
          decision: 'ask',
          rule,
          explanation: `${who} asks a person${pick.reason ? `: ${pick.reason}` : '.'}${policy.decision === 'ask' ? ` ${policy.explanation}` : ''}`,
        };
      // `allow` and no opinion: the policy's verdict stands — a hook never loosens it.
      return policy;
    },
    () => ({
      ...policy,
      decision: 'deny',
      rule: { id: 'hook_failed', source: 'hook' },
      explanation: 'hook_failed: the PreToolUse hooks could not be run.',
    }),
  );
}
