import { lazySchema } from '../../lazy-zod';
import { defineTool } from '../types';

/** "call → result" per entry: one string keeps the schema every request carries small. */
const TRIED_SEPARATOR = ' → ';

const schema = lazySchema((z) =>
  z.strictObject({
    goal: z.string().min(1).max(2000),
    /** "call → short result" each (the loop's cards write them so; the model is asked for the same). */
    tried: z.array(z.string().max(800)).max(10).default([]),
    needs: z.string().min(1).max(2000),
    /** Set by the loop's hard rule; the model is not offered it (it escalates as `model`). */
    trigger: z
      .enum(['failures', 'rejections', 'max_steps', 'model'])
      .default('model')
      .meta({ internal: true }),
  }),
);

function splitTried(entry: string): { call: string; result: string } {
  const at = entry.indexOf(TRIED_SEPARATOR);
  return at < 0
    ? { call: entry, result: '' }
    : { call: entry.slice(0, at), result: entry.slice(at + TRIED_SEPARATOR.length) };
}

/** The person's answer to an escalation card, as the gate hands it on (`ctx.answer`). */
export type EscalationAnswer = { choice: 'retry' | 'take_over'; instruction?: string };

/** Reads the gate's `ctx.answer` (JSON of the person's choice); undefined for anything else. */
function parseAnswer(text: string | undefined): EscalationAnswer | undefined {
  try {
    const a = JSON.parse(text ?? '') as Partial<EscalationAnswer> | null;
    if (a?.choice !== 'retry' && a?.choice !== 'take_over') return undefined;
    return typeof a.instruction === 'string'
      ? { choice: a.choice, instruction: a.instruction }
      : { choice: a.choice };
  } catch {
    return undefined;
  }
}

/** The tool's name, for the session's wiring (the escalation card, /undo). */
export const ESCALATE_TOOL = 'escalate';

/**
 * `escalate`: the agent stops and asks the person for help with a structured card (goal, what it
 * tried, what it needs); the person answers with an instruction to retry, takes over, skips or
 * cancels the task. The loop also raises it itself when a hard rule trips (src/agent/escalation.ts).
 * Contract: interactive — it always asks, in every mode, and no grant covers it.
 */
export function createEscalateTool() {
  return defineTool({
    name: ESCALATE_TOOL,
    description: 'Stuck? Ask the person: goal, what you tried ("call → result"), what you need.',
    schema,
    kind: 'interact',
    interactive: true,
    summary: (args) => args.needs,
    preview: (args) => ({
      kind: 'escalation',
      trigger: args.trigger,
      goal: args.goal,
      tried: args.tried.map(splitTried),
      needs: args.needs,
    }),
    async execute(_args, ctx) {
      const answer = parseAnswer(ctx.answer);
      if (!answer) return { ok: false, error: 'No answer was given.' };
      const output =
        answer.choice === 'take_over'
          ? 'The person is taking over this step by hand. You are paused; when you go on, their note and what they did are in the conversation.'
          : `The person answered: retry${answer.instruction ? ` with this instruction: ${answer.instruction}` : ''}.`;
      return { ok: true, output, data: { escalation: answer } };
    },
  });
}
