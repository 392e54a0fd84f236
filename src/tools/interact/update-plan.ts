import { lazySchema } from '../../lazy-zod';
import { defineTool } from '../types';

const schema = lazySchema((z) =>
  z.strictObject({
    step: z.number().int().min(1),
    done: z.boolean(),
  }),
);

/** `update_plan`: advance the approved plan's checklist. */
export function createUpdatePlanTool() {
  return defineTool({
    name: 'update_plan',
    description: 'Mark a step (1-based) of the approved plan done.',
    schema,
    kind: 'interact',
    summary: (args) => `step ${args.step} ${args.done ? 'done' : 'not done'}`,
    async execute(args, ctx) {
      if (!ctx.agent || !ctx.agents) return { ok: false, error: 'update_plan needs a calling agent.' };
      const error = ctx.agents.markStep(args.step, args.done);
      return error
        ? { ok: false, error }
        : { ok: true, output: `Step ${args.step} marked ${args.done ? 'done' : 'not done'}.` };
    },
  });
}
