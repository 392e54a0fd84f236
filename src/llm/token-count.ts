/**
 * Counting tokens locally, for servers that report no `usage`. The tokenizer (gpt-tokenizer, the
 * o200k encoding of current OpenAI models; other models' counts come out close enough for a share
 * of the window) costs about a second to load, so it loads only when a count is first needed —
 * never at start-up — and a message is counted once (messages never change once in the history).
 */
import type { ChatMessage, ToolSpec } from './types';

type Count = (text: string) => number;
let counter: Count | undefined;
let loading: Promise<Count> | undefined;

/**
 * Loads the tokenizer (once). Contract: never rejects; without it counts fall back to 4 characters
 * a token (`loaded()` stays false).
 */
export function loadTokenCounter(): Promise<void> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then(
    (m) => {
      counter = (text) => m.countTokens(text);
      return counter;
    },
    () => (text: string) => Math.ceil(text.length / 4),
  );
  return loading.then(() => {});
}

/** Whether counts come from the tokenizer (loaded) or the 4-characters estimate. */
export function tokenizerLoaded(): boolean {
  return counter !== undefined;
}

const perMessage = new WeakMap<object, number>();
// Each message carries a few tokens of framing (role, separators) in the chat format.
const FRAMING = 4;

/** Tokens of one message or tool list: counted once by identity when the tokenizer is loaded. */
function countOf(value: object, text: () => string): number {
  const cached = perMessage.get(value);
  if (cached !== undefined) return cached;
  const t = text();
  if (!counter) return Math.ceil(t.length / 4) + FRAMING;
  const n = counter(t) + FRAMING;
  perMessage.set(value, n);
  return n;
}

const messageText = (m: ChatMessage): string =>
  m.role === 'assistant'
    ? `${m.content ?? ''}${m.tool_calls ? JSON.stringify(m.tool_calls) : ''}`
    : m.content;

/** Tokens of `messages` (and the `tools` offered with them), counted or estimated. */
export function countMessages(messages: readonly ChatMessage[], tools: readonly ToolSpec[] = []): number {
  let total = tools.length > 0 ? countOf(tools, () => JSON.stringify(tools)) : 0;
  for (const m of messages) total += countOf(m, () => messageText(m));
  return total;
}
