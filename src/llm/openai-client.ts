/**
 * The ModelClient for any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp, LM Studio):
 * the official `openai` package with its own retries off, so the retry policy here is the only one.
 * Two limits keep a call bounded: an idle timer per attempt that counts bytes of progress
 * (streamIdleTimeoutSec) and a deadline for the whole answer, retries included (turnTimeoutSec).
 */
import { CONFIG_DEFAULTS } from '../config/schema';
import { raceAbort, sleep } from './abort';
import { attemptFailureOf, type Failure } from './failure';
import { retryNotice, toModelError } from './failure-message';
import { listModels } from './list-models';
import { DEFAULT_BASE_URL, runAttempt } from './openai-attempt';
import { createRequestBodyEncoder } from './request-body';
import { warmUpAttempt } from './warm-up-attempt';
import { DEFAULT_RETRY_POLICY, nextRetry, type RetryPolicy } from './retry';
import type { ModelClient, ModelRequest, ModelTurn } from './types';

export { DEFAULT_BASE_URL } from './openai-attempt';
/** How long a stream may go without a byte of progress (config `streamIdleTimeoutSec`). */
export const DEFAULT_IDLE_TIMEOUT_MS = CONFIG_DEFAULTS.streamIdleTimeoutSec * 1000;
/** How long one answer may take, retries included (config `turnTimeoutSec`). */
export const DEFAULT_TURN_TIMEOUT_MS = CONFIG_DEFAULTS.turnTimeoutSec * 1000;
/** Timers cannot wait longer (2^31 ms); a longer setting means "as long as a timer can". */
const MAX_TIMER_MS = 2_147_483_647;

export type OpenAIClientOptions = {
  /** API root, e.g. http://localhost:11434/v1; defaults to OpenAI's. */
  baseUrl?: string;
  /** Absent for local servers; a placeholder is sent so the package does not refuse to start. */
  apiKey?: string;
  model: string;
  /** Retries after the first attempt (default 3). Shorthand for `retry.maxRetries`. */
  maxRetries?: number;
  retry?: Partial<RetryPolicy>;
  /** How long an attempt may go without a byte of progress, before the first byte or after any (default: DEFAULT_IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
  /** The older name of `idleTimeoutMs`, kept for callers that set it. */
  firstByteTimeoutMs?: number;
  /** How long one `complete` may take, all attempts and waits included (default: DEFAULT_TURN_TIMEOUT_MS). */
  turnTimeoutMs?: number;
  /** Ask for usage in the stream; dropped automatically when a server refuses it. Default true. */
  includeUsage?: boolean;
  fetch?: typeof fetch;
  /** Jitter source, injectable for tests. */
  random?: () => number;
};

/**
 * Creates a streaming chat-completions client.
 * Contract: `complete` resolves with the assembled turn or rejects with a ModelError; it retries
 * 429/5xx/network failures with backoff, an idle timeout or a cut stream at most
 * `maxTimeoutRetries` times, and only while no text has reached `onText`; it rejects with code
 * 'turn_timeout' at the deadline and with 'aborted' as soon as the request's signal aborts.
 */
export function createOpenAIClient(options: OpenAIClientOptions): ModelClient {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...options.retry,
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
  };
  const idleMs = Math.min(
    MAX_TIMER_MS,
    options.idleTimeoutMs ?? options.firstByteTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
  );
  const turnMs = Math.min(MAX_TIMER_MS, options.turnTimeoutMs ?? DEFAULT_TURN_TIMEOUT_MS);
  const encoder = createRequestBodyEncoder();
  let includeUsage = options.includeUsage ?? true;
  let callSeq = 0;
  // `/model NAME` switches it for the next request (set_model).
  let model = options.model;
  const newId = () => `call_${Date.now().toString(36)}_${(callSeq++).toString(36)}`;
  const settings = () => ({
    baseUrl,
    model,
    idleMs,
    includeUsage,
    encoder,
    newId,
    ...(options.apiKey !== undefined && { apiKey: options.apiKey }),
    ...(options.fetch !== undefined && { fetch: options.fetch }),
  });

  async function complete(request: ModelRequest): Promise<ModelTurn> {
    const ctx = { baseUrl, model };
    const turn = turnSignal(request.signal, turnMs);
    let attempts = 0;
    let shown = false;
    const watched: ModelRequest = {
      ...request,
      onText: (delta) => {
        shown = true;
        request.onText?.(delta);
      },
    };
    try {
      for (let retries = 0, slowRetries = 0; ; ) {
        attempts += 1;
        const result = await raceAbort(turn.signal, runAttempt(watched, turn.signal, settings()));
        if (result.kind === 'ok') return result.turn;
        const { failure, delivered } = result;
        if (failure.kind === 'stream_options_rejected' && includeUsage) {
          // An older server that refuses stream_options: ask again without it, for good.
          includeUsage = false;
          attempts -= 1;
          continue;
        }
        if (failure.kind === 'aborted' || delivered)
          throw toModelError(failure, { ...ctx, attempts, midStream: delivered });
        const slow = failure.kind === 'idle' || failure.kind === 'truncated';
        const retryable = attemptFailureOf(failure);
        const decision = !retryable
          ? undefined
          : slow && slowRetries >= policy.maxTimeoutRetries
            ? ({ kind: 'stop', reason: 'exhausted' } as const)
            : nextRetry(policy, retries, retryable, options.random);
        if (!decision || decision.kind === 'stop')
          throw toModelError(failure, { ...ctx, attempts, stop: decision?.reason });
        retries += 1;
        if (slow) slowRetries += 1;
        notify(request, failure, {
          baseUrl,
          attempt: attempts,
          of: policy.maxRetries + 1,
          delayMs: decision.delayMs,
        });
        await sleep(decision.delayMs, turn.signal);
      }
    } catch (err) {
      if (turn.expired() && !request.signal.aborted)
        throw toModelError({ kind: 'deadline', afterMs: turnMs }, { ...ctx, attempts, midStream: shown });
      throw err;
    } finally {
      turn.dispose();
    }
  }

  return {
    get name() {
      return model;
    },
    demo: false,
    complete,
    setModel: (name) => {
      model = name;
    },
    warmUp: () => warmUpAttempt(settings()),
    listModels: (signal) =>
      listModels({
        baseUrl,
        signal,
        ...(options.apiKey !== undefined && { apiKey: options.apiKey }),
        ...(options.fetch !== undefined && { fetch: options.fetch }),
      }),
  };
}

function notify(request: ModelRequest, failure: Failure, ctx: Parameters<typeof retryNotice>[1]): void {
  const notice = retryNotice(failure, ctx);
  if (!notice) return;
  try {
    request.onRetry?.(notice);
  } catch {
    // A listener's failure must not end the answer.
  }
}

/** A signal that aborts when the caller's does or when `ms` have passed; `expired` tells which. */
function turnSignal(
  outer: AbortSignal,
  ms: number,
): { signal: AbortSignal; expired: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  let expired = false;
  const onAbort = () => controller.abort();
  outer.addEventListener('abort', onAbort, { once: true });
  if (outer.aborted) controller.abort();
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, ms);
  return {
    signal: controller.signal,
    expired: () => expired,
    dispose: () => {
      clearTimeout(timer);
      outer.removeEventListener('abort', onAbort);
    },
  };
}
