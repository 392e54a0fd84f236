/**
 * Turns whatever one attempt threw (the openai package's errors, undici's socket errors, a bad
 * chunk) into a `Failure` the retry loop can reason about. failure-message.ts words it for a person.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { AttemptFailure } from './retry';
import { parseRetryAfter } from './retry';
import type { IdleSeen } from './stream-watch';

export type Failure =
  | { kind: 'aborted' }
  /** The idle timer fired: nothing that counts arrived for `afterMs` (streamIdleTimeoutSec). */
  | { kind: 'idle'; afterMs: number; seen: IdleSeen }
  /** The whole answer, retries included, took longer than `afterMs` (turnTimeoutSec). */
  | { kind: 'deadline'; afterMs: number }
  /** The stream ended with neither a finish_reason nor `[DONE]`: the answer is cut short. */
  | { kind: 'truncated'; toolCalls: number }
  | { kind: 'network'; detail: string }
  | { kind: 'http'; status: number; detail: string; retryAfterMs?: number }
  | { kind: 'stream_error'; detail: string }
  | { kind: 'stream_options_rejected'; detail: string }
  | { kind: 'no_tool_support'; detail: string }
  | { kind: 'context_length'; detail: string }
  | { kind: 'bad_response'; detail: string };

const NETWORK_CODES =
  /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+)$/;
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

/**
 * The real cause behind the openai package's bare "Connection error.": the innermost message of the
 * cause chain — a redirect warden refused, or TLS spoken to a plain-HTTP server (named with what to
 * change). Undefined when the chain says nothing more.
 */
function connectionCause(err: unknown): string | undefined {
  let found: string | undefined;
  let e: unknown = (err as { cause?: unknown }).cause;
  for (let depth = 0; typeof e === 'object' && e !== null && depth < 6; depth++) {
    const o = e as { message?: unknown; code?: unknown; cause?: unknown };
    const code = typeof o.code === 'string' ? o.code : '';
    const message = typeof o.message === 'string' ? o.message : '';
    if (/WRONG_VERSION_NUMBER|wrong version number|packet length too long/i.test(`${code} ${message}`))
      return 'the address says https:// but the server answers plain HTTP; use http:// in OPENAI_BASE_URL';
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code))
      return `the server's TLS certificate is not trusted (${code}: ${message}); behind a corporate proxy or with a private CA, start warden with NODE_EXTRA_CA_CERTS=/path/to/ca.pem`;
    if (message && !/^(connection error\.?|fetch failed)$/i.test(message.trim())) found = message;
    e = o.cause;
  }
  return found;
}

const short = (s: string): string => (s.length > 240 ? `${s.slice(0, 237)}…` : s);

/**
 * Classifies an attempt's error. `body` is the raw error body when the fetch wrapper caught one
 * (the openai package drops bodies without an `error` key, such as vLLM's).
 */
export function classifyError(err: unknown, body?: string): Failure {
  if (err instanceof APIUserAbortError) return { kind: 'aborted' };
  // Only the package's own header timeout, set far beyond ours; a connection problem all the same.
  if (err instanceof APIConnectionTimeoutError)
    return { kind: 'network', detail: 'the connection timed out' };
  const code = networkCode(err);
  if (code) return { kind: 'network', detail: code };
  if (err instanceof APIConnectionError)
    return { kind: 'network', detail: short(connectionCause(err) ?? err.message) };
  if (err instanceof APIError) {
    const detail = short(errorBodyDetail(body) ?? err.message);
    const codeText = `${String(err.code ?? '')} ${detail}`;
    if (err.status === undefined) {
      // An `error` object inside the stream: the server failed after answering 200.
      if (CONTEXT.test(codeText)) return { kind: 'context_length', detail };
      return { kind: 'stream_error', detail };
    }
    const status = err.status;
    if (status >= 400 && status < 500 && STREAM_OPTIONS.test(detail))
      return { kind: 'stream_options_rejected', detail };
    if (CONTEXT.test(codeText)) return { kind: 'context_length', detail };
    if (NO_TOOLS.test(detail)) return { kind: 'no_tool_support', detail };
    const retryAfterMs = err.headers ? parseRetryAfter((n) => err.headers?.get(n)) : undefined;
    return { kind: 'http', status, detail, ...(retryAfterMs !== undefined && { retryAfterMs }) };
  }
  if (err instanceof SyntaxError)
    return { kind: 'bad_response', detail: short(`unreadable chunk: ${err.message}`) };
  const message = err instanceof Error ? err.message : String(err);
  if (/terminated|socket|fetch failed|network/i.test(message))
    return { kind: 'network', detail: short(message) };
  return { kind: 'bad_response', detail: short(message) };
}

/** What the retry policy sees; undefined for failures no retry can fix. */
export function attemptFailureOf(f: Failure): AttemptFailure | undefined {
  switch (f.kind) {
    case 'http':
      return {
        kind: 'http',
        status: f.status,
        ...(f.retryAfterMs !== undefined && { retryAfterMs: f.retryAfterMs }),
      };
    case 'network':
    case 'stream_error':
    case 'truncated':
      return { kind: 'network' };
    case 'idle':
      return { kind: 'timeout' };
    default:
      return undefined;
  }
}
