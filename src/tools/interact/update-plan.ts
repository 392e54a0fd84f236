import { z } from 'zod';
import { type ToolContext, defineTool } from '../types';

const schema = z.strictObject({
  step: z.number().int().min(1),
  done: z.boolean(),
});

/** Ticks a step of the approved plan; returns an error text when there is no such step. */
export type MarkStep = (agent: NonNullable<ToolContext['agent']>, step: number, done: boolean) => string | undefined;

/** `update_plan`: advance the approved plan's checklist. */
export function createUpdatePlanTool(mark: MarkStep) {
  return defineTool({
    name: 'update_plan',
    description: 'Mark a step (1-based) of the approved plan done.',
    schema,
    kind: 'interact',
    async execute(args, ctx) {
      if (!ctx.agent) return { ok: false, error: 'update_plan needs a calling agent.' };
      const error = mark(ctx.agent, args.step, args.done);
      return error ? { ok: false, error } : { ok: true, output: `Step ${args.step} marked ${args.done ? 'done' : 'not done'}.` };
    },
  });
}
