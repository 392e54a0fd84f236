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
      counter = (text) => boundedCount(m.countTokens, text);
      return counter;
    },
    () => (text: string) => Math.ceil(text.length / 4),
  );
  return loading.then(() => {});
}

/** Longest run without white space the tokenizer sees whole; a longer one is counted in pieces this long. */
export const MAX_RUN_CHARS = 256;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN_CHARS + 1},}`, 'g');

/**
 * Counts with `count` in time linear in the text. Byte-pair merging is quadratic in the length of
 * one word: a saved 300 KB prompt with no spaces took 105 s before the first request, and froze the
 * live context meter. A run of non-space characters longer than MAX_RUN_CHARS is counted in pieces
 * of that length (off by at most a token a piece; the runs are rare and the count is a share of the
 * window); all other text is counted as it is.
 */
export function boundedCount(count: Count, text: string): number {
  if (text.length <= MAX_RUN_CHARS) return count(text);
  let total = 0;
  let last = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    const at = run.index ?? 0;
    if (at > last) total += count(text.slice(last, at));
    for (let i = 0; i < run[0].length; i += MAX_RUN_CHARS) total += count(run[0].slice(i, i + MAX_RUN_CHARS));
    last = at + run[0].length;
  }
  return last === 0 ? count(text) : total + (last < text.length ? count(text.slice(last)) : 0);
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
