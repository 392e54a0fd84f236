import { z } from 'zod';
import { defineTool } from '../types';

const schema = z.strictObject({
  title: z.string().min(1).max(120),
  steps: z.array(z.string().min(1)).min(1).max(20),
});

/** `propose_plan`: the person approves, edits or rejects a plan. Approving a plan approves no tool call. */
export function createProposePlanTool() {
  return defineTool({
    name: 'propose_plan',
    description:
      'Have the person review a plan before a multi-step change; returns the approved (maybe edited) steps. Each change is still approved on its own.',
    schema,
    kind: 'interact',
    interactive: true,
    summary: (args) => args.title,
    preview: (args) => ({ kind: 'plan', title: String(args.title ?? 'Plan'), steps: args.steps.map(String) }),
    async execute(args, ctx) {
      if (ctx.agent) ctx.agents?.adoptPlan(args);
      const steps = args.steps.map((s, i) => `${i + 1}. ${s}`).join('\n');
      return { ok: true, output: `Plan approved: ${args.title}\n${steps}`, data: args };
    },
  });
}
