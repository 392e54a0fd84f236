/**
 * The demo's script as data (assets/demo/script.json): conversations of scripted turns, each call
 * with a label, what it needs from earlier calls and how the summary names it. Which turn plays
 * next, given what the person decided, is src/llm/demo-story.ts.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { lazySchema, zod } from '../lazy-zod';

const scriptedCall = lazySchema((z) =>
  z.strictObject({
    name: z.string().min(1),
    args: z.record(z.string(), z.unknown()),
    /** A label later calls' `needs` name (also part of the call's id, so results map back). */
    id: z
      .string()
      .regex(/^[a-z0-9-]+$/)
      .optional(),
    /** Labels of earlier calls that must have run (a command: with exit code 0), or `agent:NAME` (that sub-agent finished). */
    needs: z.array(z.string().min(1)).default([]),
    /** When a need is unmet: drop this call (default) or stop the conversation with its summary. */
    ifNot: z.enum(['drop', 'stop']).default('drop'),
    /** The summary's words when it ran ("added src/farewell.js"); a call without them is not in the summary. */
    done: z.string().min(1).optional(),
    /** Said when it did not run, before why ("src/farewell.js was not written"). */
    notDone: z.string().min(1).optional(),
    /** The conversation counts as finished without it (a demonstration expected to be refused). */
    optional: z.boolean().default(false),
  }),
);
const scriptedTurn = lazySchema((z) =>
  z.strictObject({
    text: z.string().default(''),
    toolCalls: z.array(scriptedCall).default([]),
  }),
);
/** The closing words of a conversation; its facts come from what happened. */
const summary = lazySchema((z) =>
  z.strictObject({
    /** Opens the summary when every needed call ran (a sub-agent's: `[demo] NAME: done.`, read back by the main). */
    done: z.string().min(1),
    /** Opens it when something needed did not run. */
    partly: z.string().min(1),
    /** Said after the facts when an `ifNot: stop` call ended the conversation early. */
    stopped: z.string().optional(),
    /** Said for the person's answer to an escalation: `{instruction}` is their instruction. */
    escalation: z.strictObject({ retry: z.string(), take_over: z.string(), skip: z.string() }).optional(),
    /** Quote the reports of the sub-agents this conversation spawned. */
    reports: z.boolean().default(false),
    /** Closes the summary whatever happened. */
    outro: z.string().optional(),
  }),
);
const conversation = lazySchema((z) =>
  z.strictObject({
    /** The agent that plays this conversation, for labels and ids. */
    agent: z.string().regex(/^[a-z0-9-]+$/),
    /** A sub-agent's conversation is the one whose first user message contains this. */
    match: z.string().min(1).optional(),
    turns: z.array(scriptedTurn).min(1),
    summary,
  }),
);

export const demoScriptSchema = lazySchema((z) =>
  z
    .strictObject({
      $comment: z.string().optional(),
      finalText: z.string().min(1),
      conversations: z.array(conversation).min(1),
    })
    .refine((s) => s.conversations.filter((c) => c.match === undefined).length === 1, {
      message: 'exactly one conversation (the main one) must have no `match`',
    }),
);

export type DemoScript = z.infer<typeof demoScriptSchema>;
export type DemoConversation = z.infer<typeof conversation>;
export type ScriptedTurn = z.infer<typeof scriptedTurn>;
export type ScriptedCall = z.infer<typeof scriptedCall>;

/** Reads and validates a script. Contract: rejects with an Error naming the file and the problem. */
export async function loadDemoScript(path: string): Promise<DemoScript> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    throw new Error(`The demo script ${path} could not be read: ${(err as Error).message}`);
  }
  const parsed = demoScriptSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(`The demo script ${path} is invalid: ${zod().prettifyError(parsed.error)}`);
  return parsed.data;
}
