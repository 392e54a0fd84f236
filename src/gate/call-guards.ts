import type { AnyTool } from '../tools/types';
import type { CheckCall } from './edit-stage';
import { internalArgument } from './gate-steps';
import type { Caller, Checked, ToolCall } from './gate-types';

/** Why the gate cannot read a call as a call: the rule it is refused under and the model's reason. */
export type Refusal = { ok: false; rule: string; reason: string };

/**
 * The gate's first step: the tool exists and is offered to this caller, the arguments fit its schema
 * (parsed once, here, then checked by the hard guards and the policy), and no internal argument is set.
 */
export function admitCall(
  tools: ReadonlyMap<string, AnyTool>,
  call: ToolCall,
  caller: Caller,
  check: CheckCall,
): { ok: true; checked: Checked } | Refusal {
  const tool = tools.get(call.tool);
  if (!tool) {
    const available = [...tools.keys()].join(', ');
    return refusal('unknown-tool', `There is no tool named ${call.tool}. Available: ${available}.`);
  }
  // What a sub-agent is not offered it cannot call: a sub-agent's model that sent spawn_agents anyway
  // started sub-agents of its own, each able to do the same, with no limit.
  if (caller.parentAgentId !== undefined && tool.forSubAgents === false)
    return refusal(
      'sub-agent-tool',
      `${call.tool} is not available to a sub-agent; report back to ${caller.parentAgentId} instead.`,
    );
  const result = check(tool, call.args);
  if (!result.ok) return refusal('schema', `Invalid arguments for ${call.tool}: ${result.error}`);
  // An internal argument is warden's voice on the card (the escalation's "reached its step limit"): a
  // model that sent one anyway dressed its own card up as the loop's hard rule.
  const internal = call.internal ? undefined : internalArgument(tool, call.args);
  if (internal !== undefined)
    return refusal(
      'schema',
      `Invalid arguments for ${call.tool}: ${internal} is set by warden, not by the model; leave it out.`,
    );
  return result;
}

function refusal(rule: string, reason: string): Refusal {
  return { ok: false, rule, reason };
}
