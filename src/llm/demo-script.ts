/**
 * The demo's script as data (assets/demo/script.json) and the pure rule that picks the next turn
 * from a conversation: which conversation by its first user message, which turn by how many
 * assistant messages it already holds.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { lazySchema, zod } from '../lazy-zod';
import type { ChatMessage, ToolSpec } from './types';

const scriptedCall = lazySchema((z) =>
  z.strictObject({ name: z.string().min(1), args: z.record(z.string(), z.unknown()) }),
);
const scriptedTurn = lazySchema((z) =>
  z.strictObject({
    text: z.string().default(''),
    toolCalls: z.array(scriptedCall).default([]),
  }),
);
const conversation = lazySchema((z) =>
  z.strictObject({
    /** The agent that plays this conversation, for labels and ids. */
    agent: z.string().min(1),
    /** A sub-agent's conversation is the one whose first user message contains this. */
    match: z.string().min(1).optional(),
    turns: z.array(scriptedTurn).min(1),
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
export type ScriptedTurn = z.infer<typeof scriptedTurn>;

/** What the demo plays next: a scripted turn, or a short closing text. */
export type DemoPick =
  | { kind: 'turn'; agent: string; step: number; turn: ScriptedTurn }
  | { kind: 'final'; agent: string; text: string };

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

/**
 * Picks the next turn for a conversation. Any first prompt plays the main script (it is a demo);
 * a turn that calls a tool the request does not offer ends the conversation instead, because a
 * real model could not call it either.
 */
export function pickDemoTurn(
  script: DemoScript,
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
): DemoPick {
  const first = messages.find((m) => m.role === 'user')?.content ?? '';
  const chosen =
    script.conversations.find((c) => c.match !== undefined && first.includes(c.match)) ??
    script.conversations.find((c) => c.match === undefined);
  const agent = chosen?.agent ?? 'main';
  const step = messages.filter((m) => m.role === 'assistant').length;
  const turn = chosen?.turns[step];
  if (!turn) return { kind: 'final', agent, text: script.finalText };
  const offered = new Set(tools.map((t) => t.name));
  const missing = turn.toolCalls.find((c) => !offered.has(c.name));
  if (missing) {
    const text = `[demo] The next scripted step calls ${missing.name}, which this conversation does not offer, so the demo stops here.`;
    return { kind: 'final', agent, text };
  }
  return { kind: 'turn', agent, step, turn };
}
