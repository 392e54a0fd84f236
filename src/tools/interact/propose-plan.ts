import { lazySchema } from '../../lazy-zod';
import { defineTool } from '../types';

const schema = lazySchema((z) =>
  z.strictObject({
    title: z.string().min(1).max(120),
    steps: z.array(z.string().min(1)).min(1).max(20),
  }),
);

/** `propose_plan`: the person approves, edits or rejects a plan. Approving a plan approves no tool call. */
export function createProposePlanTool() {
  return defineTool({
    name: 'propose_plan',
    description:
      'The person reviews a plan; returns the approved (maybe edited) steps. Each change still asks.',
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
