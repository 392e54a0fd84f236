import type { ApprovalRequest, Decision } from '../protocol';
import { parseToolArgs } from '../tools/parse-args';
import type { AnyTool } from '../tools/types';
import { scopeKey } from './gate-steps';

const DECISION_KINDS: ReadonlySet<Decision['kind']> = new Set([
  'approve',
  'approve_all',
  'reject',
  'skip',
  'edit',
  'cancel_task',
  'answer',
  'approve_plan',
  'escalation',
]);

/**
 * Why a person's decision cannot apply to the pending request `id`, or undefined when it may go to the
 * queue. Decisions can arrive from outside the type checker (scripts, JSON): anything unknown approves
 * nothing, and an approve-all scope must be one the gate offered.
 */
export function decisionError(
  id: string,
  decision: Decision,
  pending: () => readonly ApprovalRequest[],
  tools: ReadonlyMap<string, AnyTool>,
): string | undefined {
  if (!DECISION_KINDS.has((decision as { kind?: unknown } | undefined)?.kind as Decision['kind']))
    return 'Unknown decision.';
  if (
    decision.kind === 'approve_all' &&
    decision.scope.minutes !== undefined &&
    !(Number.isFinite(decision.scope.minutes) && decision.scope.minutes > 0)
  ) {
    return 'An approve-all time limit must be a positive number of minutes.';
  }
  const request = pending().find((r) => r.id === id);
  if (!request) return undefined;
  if (decision.kind === 'escalation' && request.preview.kind !== 'escalation')
    return `An escalation answer does not apply to ${request.tool}.`;
  if (decision.kind === 'approve_all') {
    const key = scopeKey(decision.scope);
    if (!request.grantOptions.some((s) => scopeKey(s) === key))
      return 'That approve-all scope was not offered for this request.';
  }
  // An answer or a plan approval is not a way around the schema, nor an approval of another tool:
  // each applies only to a card whose tool declared a question or a plan.
  if (decision.kind === 'answer' && request.preview.kind !== 'question')
    return `An answer does not apply to ${request.tool}.`;
  if (decision.kind === 'approve_plan') {
    const tool = tools.get(request.tool);
    if (request.preview.kind !== 'plan' || !tool) return `A plan approval does not apply to ${request.tool}.`;
    const parsed = parseToolArgs(tool, {
      ...(request.args as Record<string, unknown>),
      steps: decision.steps,
    });
    if (!parsed.ok) return parsed.error;
  }
  return undefined;
}
