/**
 * The ModelClient for any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp, LM Studio):
 * the official `openai` package with its own retries off, so the retry policy here is the only one.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { raceAbort, sleep } from './abort';
import { attemptFailureOf, classifyError, type Failure, toModelError } from './failure';
import { DEFAULT_RETRY_POLICY, nextRetry, type RetryPolicy } from './retry';
import { createTurnAssembler } from './turn-assembler';
import type { ChatMessage, ModelClient, ModelRequest, ModelTurn, ToolSpec } from './types';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 120_000;

export type OpenAIClientOptions = {
  /** API root, e.g. http://localhost:11434/v1; defaults to OpenAI's. */
  baseUrl?: string;
  /** Absent for local servers; a placeholder is sent so the package does not refuse to start. */
  apiKey?: string;
  model: string;
  /** Retries after the first attempt (default 3). Shorthand for `retry.maxRetries`. */
  maxRetries?: number;
  retry?: Partial<RetryPolicy>;
  /** How long to wait for the first chunk of an answer before the attempt counts as failed. */
  firstByteTimeoutMs?: number;
  /** How long a started stream may stay silent (default: `firstByteTimeoutMs`). */
  idleTimeoutMs?: number;
  /** Ask for usage in the stream; dropped automatically when a server refuses it. Default true. */
  includeUsage?: boolean;
  fetch?: typeof fetch;
  /** Jitter source, injectable for tests. */
  random?: () => number;
};

type AttemptResult = { kind: 'ok'; turn: ModelTurn } | { kind: 'failed'; failure: Failure; delivered: boolean };

const toWire = (m: ChatMessage): ChatCompletionMessageParam => {
  if (m.role !== 'assistant') return m;
  // OpenAI rejects an empty tool_calls array, and some servers reject a null content without one.
  if (m.tool_calls && m.tool_calls.length > 0) return { role: 'assistant', content: m.content, tool_calls: m.tool_calls };
  return { role: 'assistant', content: m.content ?? '' };
};

const toolParam = (t: ToolSpec) => ({
  type: 'function' as const,
  function: { name: t.name, description: t.description, parameters: t.parameters },
});

/**
 * Creates a streaming chat-completions client.
 * Contract: `complete` resolves with the assembled turn or rejects with a ModelError; it retries
 * 429/5xx/network/timeout failures with backoff only while no text has reached `onText`, and
 * rejects with code 'aborted' as soon as the request's signal aborts.
 */
export function createOpenAIClient(options: OpenAIClientOptions): ModelClient {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...options.retry,
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
  };
  const firstByteMs = options.firstByteTimeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS;
  const idleMs = options.idleTimeoutMs ?? firstByteMs;
  let includeUsage = options.includeUsage ?? true;
  let callSeq = 0;
  const newId = () => `call_${Date.now().toString(36)}_${(callSeq++).toString(36)}`;

  async function attempt(request: ModelRequest): Promise<AttemptResult> {
    const controller = new AbortController();
    const stopOnAbort = () => controller.abort();
    request.signal.addEventListener('abort', stopOnAbort, { once: true });
    let timedOutAfter: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOutAfter = ms;
        controller.abort();
      }, ms);
    };
    // The openai package drops error bodies without an `error` key; keep the raw text.
    let errorBody: string | undefined;
    const baseFetch = options.fetch ?? globalThis.fetch;
    const capturingFetch: typeof fetch = async (input, init) => {
      const response = await baseFetch(input, init);
      if (response.ok && /application\/json/i.test(response.headers.get('content-type') ?? '')) {
        // A server that ignores `stream: true` answers one completion: pass it on as a single event.
        const whole = (await response.text()).replace(/\r?\n/g, ' ');
        return new Response(`data: ${whole}\n\ndata: [DONE]\n\n`, { status: 200, headers: { 'content-type': 'text/event-stream' } });
      }
      if (response.ok) return response;
      errorBody = await response.text().catch(() => undefined);
      return new Response(errorBody ?? null, { status: response.status, statusText: response.statusText, headers: response.headers });
    };
    const client = new OpenAI({
      apiKey: options.apiKey || 'not-needed',
      baseURL: baseUrl,
      maxRetries: 0,
      timeout: firstByteMs,
      // A full-screen UI owns the terminal: the package must not print; failures reach the caller.
      logLevel: 'off',
      fetch: capturingFetch,
      // The package reads OPENAI_ORG_ID / OPENAI_PROJECT_ID; they are for OpenAI only, not other hosts.
      ...(baseUrl !== DEFAULT_BASE_URL && { organization: null, project: null }),
    });
    const assembler = createTurnAssembler(newId);
    let delivered = false;
    // A throwing onText is the caller's bug: hand its error back unchanged, never retry it.
    let callbackError: { error: unknown } | undefined;
    const body: ChatCompletionCreateParamsStreaming = {
      model: options.model,
      messages: request.messages.map(toWire),
      stream: true,
      ...(request.tools.length > 0 && { tools: request.tools.map(toolParam) }),
      ...(includeUsage && { stream_options: { include_usage: true } }),
    };
    arm(firstByteMs);
    try {
      const stream = await client.chat.completions.create(body, { signal: controller.signal });
      for await (const chunk of stream) {
        arm(idleMs);
        const { text } = assembler.push(chunk);
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
      // The package ends the iteration quietly when its signal aborts.
      if (request.signal.aborted) return { kind: 'failed', failure: { kind: 'aborted' }, delivered };
      if (timedOutAfter !== undefined) return { kind: 'failed', failure: { kind: 'timeout', afterMs: timedOutAfter }, delivered };
      if (assembler.chunks === 0)
        return { kind: 'failed', failure: { kind: 'bad_response', detail: 'the stream carried no chunks' }, delivered };
      return { kind: 'ok', turn: assembler.finish() };
    } catch (err) {
      if (callbackError) throw callbackError.error;
      if (request.signal.aborted) return { kind: 'failed', failure: { kind: 'aborted' }, delivered };
      if (timedOutAfter !== undefined) return { kind: 'failed', failure: { kind: 'timeout', afterMs: timedOutAfter }, delivered };
      const failure = classifyError(err, errorBody);
      return { kind: 'failed', failure: failure.kind === 'timeout' ? { kind: 'timeout', afterMs: firstByteMs } : failure, delivered };
    } finally {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', stopOnAbort);
      controller.abort();
    }
  }

  async function complete(request: ModelRequest): Promise<ModelTurn> {
    const ctx = { baseUrl, model: options.model };
    let attempts = 0;
    for (let retries = 0; ; ) {
      attempts += 1;
      const result = await raceAbort(request.signal, attempt(request));
      if (result.kind === 'ok') return result.turn;
      const { failure, delivered } = result;
      if (failure.kind === 'stream_options_rejected' && includeUsage) {
        // An older server that refuses stream_options: ask again without it, for good.
        includeUsage = false;
        attempts -= 1;
        continue;
      }
      if (failure.kind === 'aborted' || delivered) throw toModelError(failure, { ...ctx, attempts, midStream: delivered });
      const retryable = attemptFailureOf(failure);
      const decision = retryable ? nextRetry(policy, retries, retryable, options.random) : undefined;
      if (!decision || decision.kind === 'stop') throw toModelError(failure, { ...ctx, attempts, stop: decision?.reason });
      retries += 1;
      await sleep(decision.delayMs, request.signal);
    }
  }

  return { name: options.model, demo: false, complete };
}
