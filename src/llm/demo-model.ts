/**
 * The scripted demo model: what warden talks to when there is no API key and no base URL. It is
 * an ordinary ModelClient, so the rest of warden runs exactly as with a real model; the script is
 * data (assets/demo/script.json) and every text it plays is labelled "[demo]".
 */
import { join } from 'node:path';
import { abortedError, sleep } from './abort';
import { isCompactRequest } from './compact-prompt';
import { findDemoAssetsDir } from './demo-assets';
import { demoCallId } from './demo-facts';
import { type DemoScript, loadDemoScript } from './demo-script';
import { pickDemoTurn } from './demo-story';
import {
  type ChatMessage,
  type ModelClient,
  type ModelRequest,
  type ModelTurn,
  ModelError,
  type ToolCallRequest,
} from './types';

export { prepareDemoProject } from './demo-assets';

export type DemoModelOptions = {
  /** Use this script instead of assets/demo/script.json. */
  script?: DemoScript;
  /** Pause between streamed pieces so a UI shows streaming (default 8 ms; 0 = one tick). */
  tickMs?: number;
};

/** The demo's summary for /compact: scripted, saying so, naming the person's first request. */
function demoSummary(messages: readonly ChatMessage[]): string {
  const first = messages.find((m) => m.role === 'user')?.content ?? '';
  const asked = first.length > 120 ? `${first.slice(0, 120)}…` : first;
  return `[demo] A scripted summary (the demo model cannot read the conversation): the person asked "${asked}"; the demo model read and changed files of the demo project with the person's approval. Nothing else is left to do.`;
}

/** Words with their trailing space: small enough to look like streaming, whole enough to read. */
const piecesOf = (text: string): string[] => text.match(/\S+\s*|\s+/g) ?? [];

/**
 * Creates the demo model (name 'demo', demo: true).
 * Contract: rejects with ModelError 'aborted' as soon as the signal aborts, and with ModelError
 * 'bad_response' when the script cannot be loaded; otherwise always answers.
 */
export function createDemoModel(options: DemoModelOptions = {}): ModelClient {
  const tickMs = options.tickMs ?? 8;
  let script: Promise<DemoScript> | undefined = options.script ? Promise.resolve(options.script) : undefined;
  let seq = 0;
  // A per-instance salt keeps ids unique even if two demo models share one transcript.
  const salt = Math.random().toString(36).slice(2, 6);

  function loadScript(): Promise<DemoScript> {
    script ??= Promise.resolve()
      .then(() => loadDemoScript(join(findDemoAssetsDir(), 'script.json')))
      .catch((err: unknown) => {
        script = undefined;
        throw new ModelError(`The demo could not start: ${(err as Error).message}`, 'bad_response');
      });
    return script;
  }

  async function complete(request: ModelRequest): Promise<ModelTurn> {
    const { signal } = request;
    if (signal.aborted) throw abortedError();
    // /compact: the demo answers with a scripted summary (it cannot read the conversation).
    const pick = isCompactRequest(request.messages)
      ? ({ kind: 'final', agent: 'main', text: demoSummary(request.messages) } as const)
      : pickDemoTurn(await loadScript(), request.messages, request.tools);
    const text = pick.text;
    for (const piece of piecesOf(text)) {
      await sleep(tickMs, signal);
      request.onText?.(piece);
    }
    if (signal.aborted) throw abortedError();
    const toolCalls: ToolCallRequest[] =
      pick.kind === 'turn'
        ? pick.calls.map(({ label, call }) => ({
            // The label in the id lets the next request find this call's result (src/llm/demo-facts.ts).
            id: demoCallId(pick.agent, label, `${salt}${(seq++).toString(36)}`),
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          }))
        : [];
    return { text, toolCalls, finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop' };
  }

  return { name: 'demo', demo: true, complete };
}
