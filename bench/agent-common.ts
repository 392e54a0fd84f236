// What the two agent benches share: a session set up the same way, and the bare client that sends
// the same requests with no session, gate, tool or audit (the floor any client pays).
import type { ChatMessage, ModelClient, ToolSpec } from '../src/llm/types';
import { createSession } from '../src/session/session';
import type { FakeRequestBody } from '../test/helpers/fake-openai';

/** The prompt both benches send. */
export const PROMPT = 'read a.txt many times';

/** A manual-mode session, sandbox off, in `root` with its own `home`; resolves when it is ready. */
export async function benchSession(
  dirs: { root: string; home: string },
  model: ModelClient,
  limits: { maxStepsPerTurn: number; contextWindowTokens: number },
) {
  const session = await createSession({
    ...dirs,
    model,
    mode: 'manual',
    approvalTimeoutSec: 60,
    sandbox: 'off',
    ...limits,
  });
  await session.loadCommandGuard();
  return session;
}

/** The tool specs a request body offered, as the client takes them. */
export function toolSpecsOf(body: FakeRequestBody | undefined): ToolSpec[] {
  return (body?.tools ?? []).map((t) => ({
    name: t.function.name,
    description: t.function.description ?? '',
    parameters: t.function.parameters as Record<string, unknown>,
  }));
}

/**
 * Sends `rounds + 1` requests with the bare client, answering every tool call with `result`, as
 * warden's history would grow.
 */
export async function bareRounds(
  model: ModelClient,
  sent: { system: string; tools: ToolSpec[]; result: string },
  rounds: number,
): Promise<void> {
  const messages: ChatMessage[] = [
    { role: 'system', content: sent.system },
    { role: 'user', content: PROMPT },
  ];
  for (let i = 0; i <= rounds; i++) {
    const turn = await model.complete({ messages, tools: sent.tools, signal: new AbortController().signal });
    messages.push({
      role: 'assistant',
      content: turn.text || null,
      ...(turn.toolCalls.length ? { tool_calls: turn.toolCalls } : {}),
    });
    for (const call of turn.toolCalls)
      messages.push({ role: 'tool', tool_call_id: call.id, content: sent.result });
  }
}
