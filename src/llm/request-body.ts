/**
 * The JSON body of a chat-completions request, with each history message encoded once. A session
 * re-sends its whole history on every call; serialising all of it again each time made every call
 * of a long session slower than the one before. Joining cached pieces is a copy, not a re-encode.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatMessage, ToolSpec } from './types';

export type RequestBodyEncoder = {
  /** Contract: equal to JSON.stringify of the same request, as long as no sent message is mutated afterwards. */
  encode(request: { model: string; messages: readonly ChatMessage[]; tools: readonly ToolSpec[]; includeUsage: boolean }): string;
};

/** Messages as sent: the fields every compatible server accepts. */
export function toWire(m: ChatMessage): ChatCompletionMessageParam {
  if (m.role !== 'assistant') return m;
  // OpenAI rejects an empty tool_calls array, and some servers reject a null content without one.
  if (m.tool_calls && m.tool_calls.length > 0) return { role: 'assistant', content: m.content, tool_calls: m.tool_calls };
  return { role: 'assistant', content: m.content ?? '' };
}

const toolParam = (t: ToolSpec) => ({
  type: 'function' as const,
  function: { name: t.name, description: t.description, parameters: t.parameters },
});

/**
 * Creates an encoder whose cache follows the objects it has seen (a WeakMap): a message leaves the
 * cache when the history that held it is dropped. History messages are never mutated (a changed
 * system prompt is a new object), which is what makes caching by identity safe.
 */
export function createRequestBodyEncoder(): RequestBodyEncoder {
  const cache = new WeakMap<object, string>();
  const once = (key: object, build: () => unknown): string => {
    let json = cache.get(key);
    if (json === undefined) {
      json = JSON.stringify(build());
      cache.set(key, json);
    }
    return json;
  };
  return {
    encode({ model, messages, tools, includeUsage }) {
      const parts = [`"model":${JSON.stringify(model)}`, `"messages":[${messages.map((m) => once(m, () => toWire(m))).join(',')}]`, '"stream":true'];
      if (tools.length > 0) parts.push(`"tools":${once(tools, () => tools.map(toolParam))}`);
      if (includeUsage) parts.push('"stream_options":{"include_usage":true}');
      return `{${parts.join(',')}}`;
    },
  };
}
