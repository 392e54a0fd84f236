/**
 * One attempt at a streamed chat completion: the request goes out, the stream is read chunk by
 * chunk under the idle timer, and the outcome is a turn or a `Failure` the retry loop reasons about.
 */
import OpenAI from 'openai';
import { classifyError, type Failure } from './failure';
import type { RequestBodyEncoder } from './request-body';
import { chatStreamChunks, type StreamedResponse } from './sse-events';
import { AnswerTooLarge, tapEventStream } from './sse-tap';
import { createStreamWatch, type IdleSeen } from './stream-watch';
import { createTurnAssembler } from './turn-assembler';
import type { ModelRequest, ModelTurn } from './types';
import { nodeFetch } from './http/node-fetch';
import { PlainResponse } from './http/plain-response';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
// The package's own timeout covers only the wait for headers; ours (idle, deadline) govern.
const PACKAGE_TIMEOUT_MS = 2_147_483_647;

export type AttemptSettings = {
  baseUrl: string;
  apiKey?: string;
  model: string;
  idleMs: number;
  includeUsage: boolean;
  encoder: RequestBodyEncoder;
  newId: () => string;
  /** The transport; node:http by default (http/node-fetch.ts), global fetch or a stub where given. */
  fetch?: ModelFetch;
};

/** What the model transport is asked and answers: fetch's shape, the members the openai package reads. */
export type ModelFetch = (input: string | URL, init?: RequestInit) => Promise<FetchedResponse>;
type FetchedResponse = {
  ok: boolean;
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
};

export type AttemptResult =
  | { kind: 'ok'; turn: ModelTurn }
  | { kind: 'failed'; failure: Failure; delivered: boolean };

/**
 * Runs one attempt. `signal` is the turn's: the person's cancel or the turn deadline.
 * Contract: resolves with a result for every failure of the server; rethrows only what `onText`
 * threw (the caller's own bug, never retried).
 */
export async function runAttempt(
  request: ModelRequest,
  signal: AbortSignal,
  s: AttemptSettings,
): Promise<AttemptResult> {
  const controller = new AbortController();
  const stopOnAbort = () => controller.abort();
  signal.addEventListener('abort', stopOnAbort, { once: true });
  if (signal.aborted) controller.abort();
  let idle: IdleSeen | undefined;
  const watch = createStreamWatch({
    idleMs: s.idleMs,
    onIdle: (seen) => {
      idle = seen;
      controller.abort();
    },
  });
  let sawDone = () => false;
  // The openai package drops error bodies without an `error` key; keep the raw text.
  let errorBody: string | undefined;
  const baseFetch = s.fetch ?? (nodeFetch as ModelFetch);
  const tappingFetch: ModelFetch = async (input, init) => {
    const response = await baseFetch(input, init);
    const body = response.body;
    if (response.ok && body && /application\/json/i.test(response.headers.get('content-type') ?? '')) {
      // A server that ignores `stream: true` answers one completion: pass it on as a single event.
      const whole = (
        await new PlainResponse(tapEventStream(body, (n) => watch.bytes(n)).stream).text()
      ).replace(/\r?\n/g, ' ');
      sawDone = () => true;
      return new PlainResponse(`data: ${whole}\n\ndata: [DONE]\n\n`, {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
      });
    }
    if (response.ok && body) {
      const tap = tapEventStream(body, (n) => watch.bytes(n));
      sawDone = tap.sawDone;
      return new PlainResponse(tap.stream, {
        status: response.status,
        statusText: response.statusText,
        headers: headerPairs(response.headers),
      });
    }
    if (response.ok) return response;
    errorBody = await response.text().catch(() => undefined);
    return new PlainResponse(errorBody ?? null, {
      status: response.status,
      statusText: response.statusText,
      headers: headerPairs(response.headers),
    });
  };
  const client = new OpenAI({
    apiKey: s.apiKey || 'not-needed',
    baseURL: s.baseUrl,
    maxRetries: 0,
    timeout: PACKAGE_TIMEOUT_MS,
    // A full-screen UI owns the terminal: the package must not print; failures reach the caller.
    logLevel: 'off',
    // The package reads only the members ModelFetch names; its type asks for a whole fetch.
    fetch: tappingFetch as unknown as typeof fetch,
    // The package reads OPENAI_ORG_ID / OPENAI_PROJECT_ID; they are for OpenAI only, not other hosts.
    ...(s.baseUrl !== DEFAULT_BASE_URL && { organization: null, project: null }),
  });
  const assembler = createTurnAssembler(s.newId);
  let delivered = false;
  // A throwing onText is the caller's bug: hand its error back unchanged, never retry it.
  let callbackError: { error: unknown } | undefined;
  const stopped = (): Failure | undefined => {
    if (signal.aborted) return { kind: 'aborted' };
    if (idle !== undefined) return { kind: 'idle', afterMs: s.idleMs, seen: idle };
    return undefined;
  };
  // The body is encoded here, from cached pieces; the package sends it as given.
  const body = s.encoder.encode({
    model: s.model,
    messages: request.messages,
    tools: request.tools,
    includeUsage: s.includeUsage,
  });
  let drained = false;
  try {
    // The response as it came (the package's errors for a failed status included); its events are
    // read by sse-events.ts, the package's rules a piece of the body at a time.
    request.onSent?.();
    const response = await client.chat.completions
      .create(
        { model: s.model, messages: [], stream: true },
        { signal: controller.signal, body, headers: { 'content-type': 'application/json' } },
      )
      .asResponse();
    for await (const chunks of chatStreamChunks(response as unknown as StreamedResponse, () =>
      controller.abort(),
    )) {
      for (const chunk of chunks) {
        const { text, progress, named } = assembler.push(chunk);
        watch.chunk(progress);
        for (const name of named) request.onToolNamed?.(name);
        if (text) {
          delivered = true;
          try {
            request.onText?.(text);
          } catch (error) {
            callbackError = { error };
            throw error;
          }
        }
      }
    }
    // Read to its end: nothing is left to release, and an abort now would only cost (a DOMException,
    // undici's teardown: ~0.9 ms a request, a quarter of warden's own work per tool call).
    drained = true;
    // The package ends the iteration quietly when its signal aborts.
    const stop = stopped();
    if (stop) return { kind: 'failed', failure: stop, delivered };
    if (assembler.chunks === 0)
      return {
        kind: 'failed',
        failure: { kind: 'bad_response', detail: 'the stream carried no chunks' },
        delivered,
      };
    const turn = assembler.finish();
    // Neither a finish_reason nor [DONE]: the connection ended mid-answer; its tool calls may be cut.
    if (turn.finishReason === null && !sawDone())
      return { kind: 'failed', failure: { kind: 'truncated', toolCalls: turn.toolCalls.length }, delivered };
    return { kind: 'ok', turn };
  } catch (err) {
    if (callbackError) throw callbackError.error;
    const large = tooLarge(err);
    if (large) return { kind: 'failed', failure: { kind: 'bad_response', detail: large.message }, delivered };
    return { kind: 'failed', failure: stopped() ?? classifyError(err, errorBody), delivered };
  } finally {
    watch.dispose();
    signal.removeEventListener('abort', stopOnAbort);
    // A stream left part-read (a failure, a throwing onText) is closed, so its socket is not held.
    if (!drained) controller.abort();
  }
}

/** The pairs of a response's headers, from a PlainHeaders or a global Headers alike. */
function headerPairs(headers: FetchedResponse['headers']): [string, string][] {
  const iterable = headers as unknown as Partial<Iterable<[string, string]>>;
  return typeof iterable[Symbol.iterator] === 'function' ? [...(iterable as Iterable<[string, string]>)] : [];
}

/** The AnswerTooLarge in `err` or its causes (the package wraps what its fetch threw). */
function tooLarge(err: unknown, depth = 0): AnswerTooLarge | undefined {
  if (err instanceof AnswerTooLarge) return err;
  if (depth > 4 || typeof err !== 'object' || err === null) return undefined;
  return tooLarge((err as { cause?: unknown }).cause, depth + 1);
}
