import { z } from 'zod';
import { type ToolContext, defineTool } from '../types';

export const MAX_SUB_AGENTS = 8;

const schema = z.strictObject({
  agents: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(40),
        task: z.string().min(1).describe('Self-contained: the sub-agent sees nothing else'),
      }),
    )
    .min(1)
    .max(MAX_SUB_AGENTS),
});

export type SubAgentReport = { name: string; status: 'done' | 'failed' | 'cancelled'; report: string };

/** Runs sub-agents for a parent; provided by the agent layer. */
export type SpawnAgents = (parent: NonNullable<ToolContext['agent']>, agents: z.infer<typeof schema>['agents'], signal: AbortSignal) => Promise<SubAgentReport[]>;

/** `spawn_agents`: independent sub-tasks run in parallel, each its own agent behind the same gate. */
export function createSpawnAgentsTool(spawn: SpawnAgents) {
  return defineTool({
    name: 'spawn_agents',
    description: `Run up to ${MAX_SUB_AGENTS} sub-agents in parallel on independent tasks, behind the same gate; returns each one's report.`,
    schema,
    kind: 'interact',
    async execute(args, ctx) {
      if (!ctx.agent) return { ok: false, error: 'spawn_agents needs a calling agent.' };
      const reports = await spawn(ctx.agent, args.agents, ctx.signal);
      return { ok: true, output: JSON.stringify(reports), data: reports };
    },
  });
}
