/**
 * Turns whatever one attempt threw (the openai package's errors, undici's socket errors, a bad
 * chunk) into a `Failure` the retry loop can reason about, and a failure into a ModelError whose
 * message says what happened and what to check.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { AttemptFailure } from './retry';
import { parseRetryAfter } from './retry';
import { ModelError } from './types';

export type Failure =
  | { kind: 'aborted' }
  | { kind: 'timeout'; afterMs: number }
  | { kind: 'network'; detail: string }
  | { kind: 'http'; status: number; detail: string; retryAfterMs?: number }
  | { kind: 'stream_error'; detail: string }
  | { kind: 'stream_options_rejected'; detail: string }
  | { kind: 'no_tool_support'; detail: string }
  | { kind: 'context_length'; detail: string }
  | { kind: 'bad_response'; detail: string };

const NETWORK_CODES = /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/;
// Kept tight on purpose: a schema error that merely mentions a function must not read as "no tools".
const NO_TOOLS = new RegExp(
  [
    String.raw`(does not|doesn't|do not|cannot|can't) support (tools?|functions?|function calling|tool calling|tool use)\b`,
    String.raw`\b(tools?|functions?|function[ _-]calling|tool[ _-]calling|tool[ _-]use|tool_choice)( are| is)? (not|un)[ -]?supported`,
    String.raw`unsupported (parameter|argument|field)s?:? ['"]?(tools|functions|tool_choice)\b`,
    String.raw`requires --jinja`,
    String.raw`argument supplied: tools\b`,
    String.raw`unknown (field|parameter|argument):? ['"]?tools\b`,
  ].join('|'),
  'i',
);
const CONTEXT =
  /context[ _-]length|maximum context|context window|context size|too many tokens|prompt is too long|input is too long|reduce the length of the messages/i;
const STREAM_OPTIONS = /stream_options|include_usage/i;

/** The most useful sentence in an error body: `error.message`, `message`, `detail`, or the text. */
export function errorBodyDetail(body: string | undefined): string | undefined {
  if (!body?.trim()) return undefined;
  try {
    const json: unknown = JSON.parse(body);
    const pick = (v: unknown): string | undefined => {
      if (typeof v === 'string') return v;
      if (typeof v !== 'object' || v === null) return undefined;
      const o = v as Record<string, unknown>;
      return pick(o.error) ?? pick(o.message) ?? pick(o.detail);
    };
    return pick(json) ?? body.trim();
  } catch {
    return body.trim();
  }
}

/** The first `code` (ECONNREFUSED …) anywhere in an error's cause chain. */
function networkCode(err: unknown, depth = 0): string | undefined {
  if (typeof err !== 'object' || err === null || depth > 6) return undefined;
  const o = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof o.code === 'string' && NETWORK_CODES.test(o.code)) return o.code;
  const nested = Array.isArray(o.errors) ? o.errors : [];
  for (const e of [o.cause, ...nested]) {
    const code = networkCode(e, depth + 1);
    if (code) return code;
  }
  return undefined;
}

const short = (s: string): string => (s.length > 240 ? `${s.slice(0, 237)}…` : s);

/**
 * Classifies an attempt's error. `body` is the raw error body when the fetch wrapper caught one
 * (the openai package drops bodies without an `error` key, such as vLLM's).
 */
export function classifyError(err: unknown, body?: string): Failure {
  if (err instanceof APIUserAbortError) return { kind: 'aborted' };
  if (err instanceof APIConnectionTimeoutError) return { kind: 'timeout', afterMs: 0 };
  const code = networkCode(err);
  if (code) return { kind: 'network', detail: code };
  if (err instanceof APIConnectionError) return { kind: 'network', detail: short(err.message) };
  if (err instanceof APIError) {
    const detail = short(errorBodyDetail(body) ?? err.message);
    const codeText = `${String(err.code ?? '')} ${detail}`;
    if (err.status === undefined) {
      // An `error` object inside the stream: the server failed after answering 200.
      if (CONTEXT.test(codeText)) return { kind: 'context_length', detail };
      return { kind: 'stream_error', detail };
    }
    const status = err.status;
    if (status >= 400 && status < 500 && STREAM_OPTIONS.test(detail)) return { kind: 'stream_options_rejected', detail };
    if (CONTEXT.test(codeText)) return { kind: 'context_length', detail };
    if (NO_TOOLS.test(detail)) return { kind: 'no_tool_support', detail };
    const retryAfterMs = err.headers ? parseRetryAfter((n) => err.headers?.get(n)) : undefined;
    return { kind: 'http', status, detail, ...(retryAfterMs !== undefined && { retryAfterMs }) };
  }
  if (err instanceof SyntaxError) return { kind: 'bad_response', detail: short(`unreadable chunk: ${err.message}`) };
  const message = err instanceof Error ? err.message : String(err);
  if (/terminated|socket|fetch failed|network/i.test(message)) return { kind: 'network', detail: short(message) };
  return { kind: 'bad_response', detail: short(message) };
}

/** What the retry policy sees; undefined for failures no retry can fix. */
export function attemptFailureOf(f: Failure): AttemptFailure | undefined {
  switch (f.kind) {
    case 'http':
      return { kind: 'http', status: f.status, ...(f.retryAfterMs !== undefined && { retryAfterMs: f.retryAfterMs }) };
    case 'network':
    case 'stream_error':
      return { kind: 'network' };
    case 'timeout':
      return { kind: 'timeout' };
    default:
      return undefined;
  }
}

export type FailureContext = {
  baseUrl: string;
  model: string;
  attempts: number;
  /** Why the retries ended, when they did. */
  stop?: 'not_retryable' | 'exhausted' | 'retry_after_too_long';
  /** True when part of the answer had already been shown, so it was not retried. */
  midStream?: boolean;
};

const duration = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 1000)} s`);
const times = (n: number): string => ['', 'once', 'twice', 'three times', 'four times', 'five times'][n] ?? `${n} times`;
const tries = (n: number): string => (n === 1 ? '' : ` after ${n} attempts`);

/** The ModelError a person reads. */
export function toModelError(f: Failure, ctx: FailureContext): ModelError {
  const at = `The model server at ${ctx.baseUrl}`;
  if (f.kind === 'aborted') return new ModelError('The model request was cancelled.', 'aborted');
  if (ctx.midStream && (f.kind === 'network' || f.kind === 'timeout' || f.kind === 'stream_error')) {
    const why = f.kind === 'timeout' ? `nothing arrived for ${duration(f.afterMs)}` : f.detail;
    return new ModelError(
      `${at} stopped mid-answer (${why}); the partial answer was not retried so nothing repeats. Try again.`,
      'network',
    );
  }
  switch (f.kind) {
    case 'timeout':
      return new ModelError(
        `${at} sent nothing for ${duration(f.afterMs)}${tries(ctx.attempts)}; check that it is running and the model is loaded, or raise the timeout.`,
        'network',
      );
    case 'network':
      return new ModelError(
        `Could not reach the model server at ${ctx.baseUrl} (${f.detail})${tries(ctx.attempts)}; check that it is running and that OPENAI_BASE_URL is right.`,
        'network',
      );
    case 'stream_error':
      return new ModelError(`${at} reported an error while streaming${tries(ctx.attempts)}: ${f.detail}`, 'http');
    case 'no_tool_support':
      return new ModelError(
        `The model "${ctx.model}" at ${ctx.baseUrl} does not support tool calls (${f.detail}); warden needs a model with tool (function) calling — choose another with WARDEN_MODEL.`,
        'no_tool_support',
        400,
      );
    case 'context_length':
      return new ModelError(
        `The conversation is longer than the model "${ctx.model}" accepts (${f.detail}); start a new task or shorten the conversation.`,
        'context_length',
        400,
      );
    case 'bad_response':
    case 'stream_options_rejected':
      return new ModelError(
        `${at} sent an answer warden could not read (${f.detail}); check that it is OpenAI-compatible and supports streaming.`,
        'bad_response',
      );
    case 'http':
      return new ModelError(httpMessage(f, ctx, at), 'http', f.status);
  }
}

function httpMessage(f: Extract<Failure, { kind: 'http' }>, ctx: FailureContext, at: string): string {
  if (ctx.stop === 'retry_after_too_long')
    return `${at} answered ${f.status} and asked to wait ${duration(f.retryAfterMs ?? 0)} before retrying (${f.detail}); try again later.`;
  if (f.status === 401 || f.status === 403)
    return `${at} refused the API key (${f.status}: ${f.detail}); check OPENAI_API_KEY.`;
  if (f.status === 404)
    return `${at} answered 404 (${f.detail}); check the model name "${ctx.model}" (WARDEN_MODEL) and that OPENAI_BASE_URL is the API root, e.g. http://localhost:11434/v1.`;
  if (f.status === 429)
    return `${at} answered 429 (rate limited) ${times(ctx.attempts)} (last: ${f.detail}); wait a moment and try again, or check the account's limits.`;
  if (f.status >= 500 || f.status === 408)
    return `${at} answered ${f.status} ${times(ctx.attempts)} (last: ${f.detail}); check the server's logs, or try again later.`;
  return `${at} rejected the request (${f.status}: ${f.detail}).`;
}
