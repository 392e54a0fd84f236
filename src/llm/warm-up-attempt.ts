/**
 * One attempt at a streamed answer against an in-memory stream instead of a server: the request
 * is built and encoded, and a short answer with a tool call goes through the tap, the openai
 * package's event parser and the turn assembler — the code a first real answer runs, compiled by V8
 * while the person types the first prompt (the first card of a session). Nothing leaves
 * the process.
 */
import { PlainResponse } from './http/plain-response';
import { type AttemptSettings, runAttempt } from './openai-attempt';
import { createRequestBodyEncoder } from './request-body';

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'warm-up',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'warm-up',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

const ANSWER = [
  chunk({ role: 'assistant', content: 'Warming up.' }),
  chunk({
    tool_calls: [
      { index: 0, id: 'warm-up', type: 'function', function: { name: 'warm_up', arguments: '{"path":' } },
    ],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"warm-up.txt","content":"x\\n"}' } }] }),
  chunk({}, 'tool_calls'),
  'data: [DONE]\n\n',
].join('');

/**
 * Runs the in-memory attempt with `settings` (its own encoder, its own transport).
 * Contract: never throws; never opens a connection.
 */
export async function warmUpAttempt(settings: AttemptSettings): Promise<void> {
  const signal = new AbortController().signal;
  try {
    await runAttempt({ messages: [{ role: 'user', content: 'warm-up' }], tools: [], signal }, signal, {
      ...settings,
      encoder: createRequestBodyEncoder(),
      fetch: async () =>
        new PlainResponse(ANSWER, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    });
  } catch {
    // A warm-up is an optimisation: the first real request runs the same code and reports its own errors.
  }
}
