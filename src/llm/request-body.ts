/**
 * The JSON body of a chat-completions request, with each history message serialised once. A
 * session re-sends its whole history on every call; serialising all of it again made every call of
 * a long session slower than the one before. A request encodes the cached JSON into one buffer of
 * its exact size: one pass over the bytes, and no buffer made per message (a burst of thousands of
 * results allocated one each).
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
 * Each message's JSON as sent, by message: a message is serialised once in its life, for every
 * request that carries it and for the turn's size estimate (agent/loop.ts). A message leaves with the
 * history that held it (a WeakMap). History messages are never mutated (a changed system prompt is
 * a new object), which is what makes caching by identity safe.
 */
const sent = new WeakMap<object, { json: string; bytes: number }>();

function wire(key: object, build: () => unknown): { json: string; bytes: number } {
  let piece = sent.get(key);
  if (piece === undefined) {
    const json = JSON.stringify(build());
    piece = { json, bytes: Buffer.byteLength(json) };
    sent.set(key, piece);
  }
  return piece;
}

/** `JSON.stringify(toWire(m))`, made once per message. */
export function messageJson(m: ChatMessage): string {
  return wire(m, () => toWire(m)).json;
}

/**
 * Creates an encoder of request bodies from the messages' cached JSON: the body is one buffer of the
 * exact size, each piece encoded straight into it (no joined string, no buffer per message).
 */
export function createRequestBodyEncoder(): RequestBodyEncoder {
  return {
    encode({ model, messages, tools, includeUsage }) {
      const parts: string[] = [`{"model":${JSON.stringify(model)},"stream":true,"messages":[`];
      const sizes: number[] = [Buffer.byteLength(parts[0] as string)];
      messages.forEach((m, i) => {
        if (i > 0) {
          parts.push(',');
          sizes.push(1);
        }
        const piece = wire(m, () => toWire(m));
        parts.push(piece.json);
        sizes.push(piece.bytes);
      });
      parts.push(']');
      sizes.push(1);
      if (tools.length > 0) {
        const piece = wire(tools, () => tools.map(toolParam));
        parts.push(',"tools":', piece.json);
        sizes.push(9, piece.bytes);
      }
      const tail = includeUsage ? ',"stream_options":{"include_usage":true}}' : '}';
      parts.push(tail);
      sizes.push(tail.length);
      let total = 0;
      for (const size of sizes) total += size;
      const body = Buffer.allocUnsafe(total);
      let at = 0;
      for (let i = 0; i < parts.length; i++)
        at += body.write(parts[i] as string, at, sizes[i] as number, 'utf8');
      return body;
    },
  };
}
