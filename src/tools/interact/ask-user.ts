import { lazySchema } from '../../lazy-zod';
import { defineTool } from '../types';

const schema = lazySchema((z) =>
  z.strictObject({
    question: z.string().min(1),
    options: z.array(z.string().min(1)).max(8).optional(),
  }),
);

/** `ask_user`: a clarifying question; the person's answer comes back as the result. */
export function createAskUserTool() {
  return defineTool({
    name: 'ask_user',
    description: 'Ask the person a clarifying question. Not for permission: the gate asks that itself.',
    schema,
    kind: 'interact',
    interactive: true,
    summary: (args) => args.question,
    preview: (args) => ({
      kind: 'question',
      question: args.question,
      ...(args.options ? { options: args.options.map(String) } : {}),
    }),
    async execute(_args, ctx) {
      if (ctx.answer === undefined) return { ok: false, error: 'No answer was given.' };
      return { ok: true, output: ctx.answer, data: { answer: ctx.answer } };
    },
  });
}
