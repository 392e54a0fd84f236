/**
 * What goes into an agent's history is bounded: the history is re-sent on every call, so one
 * 10 MB argument or result kept verbatim would end every later call with a context-window error
 * until /clear. Past a cap, a value is kept as a short summary plus a pointer (where it went, its
 * sha256), or a result as its head and tail. The person's transcript and the audit keep their own caps.
 */
import { createHash } from 'node:crypto';
import type { ToolCallRequest } from '../llm/types';
import type { ToolResultEnvelope } from '../protocol';
import { formatBytes } from '../text/bytes';

/** Characters kept verbatim, sized from the model's context window. */
export type HistoryLimits = {
  /** A call's arguments up to this are kept whole; past it, long strings become summaries. */
  argChars: number;
  /** A tool result's JSON up to this is kept whole; past it, its output keeps head and tail. */
  resultChars: number;
  /** The assistant's own text. */
  textChars: number;
};

const clamp = (n: number, low: number, high: number) => Math.max(low, Math.min(high, Math.floor(n)));
// Strings shorter than this (paths, names, flags) stay as they are inside a bounded call.
const SHORT_STRING = 512;

/** Limits for a context of `tokens` (about 3.5 characters a token, as the context estimate assumes). */
export function historyLimits(tokens: number): HistoryLimits {
  const chars = tokens * 3.5;
  return {
    argChars: clamp(chars / 16, 2_000, 16_384),
    resultChars: clamp(chars / 4, 8_000, 200_000),
    textChars: clamp(chars / 8, 4_000, 64_000),
  };
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** `[12 MB of content, not kept in the conversation; written to x.ts; sha256 …]` */
export function pointer(text: string, what: string, where: string | undefined): string {
  return `[${formatBytes(Buffer.byteLength(text))} of ${what}, not kept in the conversation${where ? `; ${where}` : ''}; sha256 ${sha(text)}]`;
}

/** Where an argument went, judged from the call's result (undefined before it ran). */
function whereItWent(
  field: string,
  args: Record<string, unknown>,
  result: ToolResultEnvelope | undefined,
): string | undefined {
  if (!result) return undefined;
  const path = typeof args.path === 'string' ? args.path : undefined;
  if (result.status === 'executed')
    return field === 'content' && path ? `written to ${path}; read the file to see it` : 'the call ran';
  return `the call was not run (${result.status})${field === 'content' && path ? `, so ${path} was not written` : ''}`;
}

/**
 * A tool call as the history keeps it. `result` (when known) names where a long value went.
 * Contract: returns `call` itself when its arguments fit; otherwise valid JSON arguments of at most
 * about `limit` characters, whatever the model sent (broken JSON included).
 */
export function boundCall(
  call: ToolCallRequest,
  limit: number,
  result?: ToolResultEnvelope,
): ToolCallRequest {
  const args = call.function.arguments;
  if (args.length <= limit) return call;
  return { ...call, function: { ...call.function, arguments: boundArguments(args, limit, result) } };
}

function boundArguments(args: string, limit: number, result: ToolResultEnvelope | undefined): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return JSON.stringify({
      _omitted: pointer(
        args,
        'arguments that are not valid JSON',
        result ? `the call was not run (${result.status})` : undefined,
      ),
    });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return JSON.stringify({ _omitted: pointer(args, 'arguments', undefined) });
  const top = parsed as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(top)) {
    kept[key] =
      typeof value === 'string' && value.length > SHORT_STRING
        ? pointer(value, key, whereItWent(key, top, result))
        : value;
  }
  const out = JSON.stringify(kept);
  if (out.length <= limit) return out;
  // Still too long (a huge array or nested object): keep only short scalar fields.
  const scalars = Object.fromEntries(
    Object.entries(kept)
      .filter(([, v]) => typeof v !== 'object' || v === null)
      .filter(([, v]) => String(v).length <= SHORT_STRING * 2),
  );
  return JSON.stringify({ ...scalars, _omitted: pointer(args, 'arguments', undefined) });
}

/** The history's text of each result it holds whole (not cut), by result. */
const wholeResults = new WeakMap<ToolResultEnvelope, string>();

/**
 * Whether `content` is `result`'s JSON, whole: the session file then saves the tool message as a
 * reference to the result's event (src/session/saved/store.ts). One lookup for what `boundResult`
 * made; any other text is compared with the result's JSON.
 */
export function isWholeResult(content: string, result: ToolResultEnvelope): boolean {
  const json = wholeResults.get(result);
  return json !== undefined ? json === content : JSON.stringify(result) === content;
}

/**
 * A tool result as the history keeps it: its JSON, with a long output cut to head and tail.
 * Contract: valid JSON of at most about `limit` characters; the envelope's status and reason stay.
 */
export function boundResult(envelope: ToolResultEnvelope, limit: number): string {
  const json = JSON.stringify(envelope);
  if (json.length <= limit) {
    wholeResults.set(envelope, json);
    return json;
  }
  const bounded: ToolResultEnvelope = { ...envelope };
  if (bounded.data !== undefined) {
    const data = JSON.stringify(bounded.data) ?? '';
    if (data.length > limit / 4) bounded.data = pointer(data, 'data', undefined);
  }
  if (bounded.reason && bounded.reason.length > SHORT_STRING * 4)
    bounded.reason = headTail(bounded.reason, SHORT_STRING * 4);
  const rest = JSON.stringify({ ...bounded, output: '' }).length;
  if (typeof bounded.output === 'string')
    bounded.output = headTail(bounded.output, Math.max(SHORT_STRING, Math.floor((limit - rest) * 0.8)));
  const out = JSON.stringify(bounded);
  // Escaping can still push it past the limit (a result of quotes and control characters).
  return out.length <= limit
    ? out
    : JSON.stringify({
        status: envelope.status,
        ...(envelope.by && { by: envelope.by }),
        output: pointer(json, 'result', undefined),
      });
}

/** The head and tail of `text` within about `budget` characters, with the cut said in the middle. */
export function headTail(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const head = Math.floor(budget * 0.7);
  const tail = Math.max(0, budget - head);
  const cut = text.slice(head, text.length - tail);
  return `${text.slice(0, head)}\n[… ${formatBytes(Buffer.byteLength(cut))} cut from the middle to keep the conversation small; ask for a narrower part to see it; sha256 ${sha(cut)} …]\n${text.slice(text.length - tail)}`;
}
