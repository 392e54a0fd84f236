/**
 * The JSON body of a chat-completions request, with each history message encoded once, to UTF-8
 * bytes. A session re-sends its whole history on every call; serialising all of it again (and
 * encoding the string to bytes again) made every call of a long session slower than the one
 * before. Concatenating cached bytes is one copy, and the bytes live outside the JS heap.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatMessage, ToolSpec } from './types';

export type RequestBodyEncoder = {
  /** Contract: the UTF-8 bytes of JSON.stringify of the same request, as long as no sent message is mutated afterwards. */
  encode(request: {
    model: string;
    messages: readonly ChatMessage[];
    tools: readonly ToolSpec[];
    includeUsage: boolean;
  }): Uint8Array;
};

const COMMA = Buffer.from(',');

/** Messages as sent: the fields every compatible server accepts. */
export function toWire(m: ChatMessage): ChatCompletionMessageParam {
  if (m.role !== 'assistant') return m;
  // OpenAI rejects an empty tool_calls array, and some servers reject a null content without one.
  if (m.tool_calls && m.tool_calls.length > 0)
    return { role: 'assistant', content: m.content, tool_calls: m.tool_calls };
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
  const cache = new WeakMap<object, Buffer>();
  const once = (key: object, build: () => unknown): Buffer => {
    let bytes = cache.get(key);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(build()));
      cache.set(key, bytes);
    }
    return bytes;
  };
  return {
    encode({ model, messages, tools, includeUsage }) {
      const parts: Buffer[] = [Buffer.from(`{"model":${JSON.stringify(model)},"stream":true,"messages":[`)];
      messages.forEach((m, i) => {
        if (i > 0) parts.push(COMMA);
        parts.push(once(m, () => toWire(m)));
      });
      parts.push(Buffer.from(']'));
      if (tools.length > 0)
        parts.push(
          Buffer.from(',"tools":'),
          once(tools, () => tools.map(toolParam)),
        );
      parts.push(Buffer.from(includeUsage ? ',"stream_options":{"include_usage":true}}' : '}'));
      return Buffer.concat(parts);
    },
  };
}
