/**
 * Which plan step a caller is on, as the cards show it. The main agent is on the first step not yet
 * done; a sub-agent is on the step that names it ("… (sub-agent writer)"), or on none — never on the
 * main agent's first open step, which is stale while sub-agents work on later ones.
 */
import type { PlanState } from '../protocol';

export type PlanStep = { index: number; total: number; title: string };

const words = (text: string): string[] => text.toLowerCase().split(/[^\p{L}\p{N}_-]+/u);

/** The step of `agentName` (undefined when the plan names none for it, or everything is done). */
export function planStepOf(plan: PlanState, agentName: string, isSubAgent: boolean): PlanStep | undefined {
  const at = (index: number): PlanStep | undefined =>
    index < 0
      ? undefined
      : { index: index + 1, total: plan.steps.length, title: plan.steps[index]?.text ?? '' };
  if (!isSubAgent) return at(plan.steps.findIndex((s) => !s.done));
  const name = agentName.toLowerCase();
  return at(plan.steps.findIndex((s) => words(s.text).includes(name)));
}
