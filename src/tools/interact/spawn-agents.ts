import { lazySchema } from '../../lazy-zod';
import { defineTool } from '../types';

export type { SubAgentReport } from '../types';

export const MAX_SUB_AGENTS = 8;

const schema = lazySchema((z) =>
  z.strictObject({
    agents: z
      .array(
        z.strictObject({
          name: z.string().min(1).max(40),
          task: z.string().min(1).describe('Self-contained: the sub-agent sees nothing else'),
        }),
      )
      .min(1)
      .max(MAX_SUB_AGENTS),
  }),
);

/** `spawn_agents`: independent sub-tasks run in parallel, each its own agent behind the same gate. */
export function createSpawnAgentsTool() {
  return defineTool({
    name: 'spawn_agents',
    description: `Run up to ${MAX_SUB_AGENTS} sub-agents in parallel on independent tasks; returns their reports.`,
    schema,
    kind: 'interact',
    forSubAgents: false,
    summary: (args) => args.agents.map((a) => a.name).join(', '),
    async execute(args, ctx) {
      if (!ctx.agent || !ctx.agents) return { ok: false, error: 'spawn_agents needs a calling agent.' };
      const reports = await ctx.agents.spawn(args.agents, ctx.signal);
      return { ok: true, output: JSON.stringify(reports), data: reports };
    },
  });
}
