/**
 * Words a model failure for the person: what happened, which limit fired (by its config name),
 * and what to check or change.
 */
import type { Failure } from './failure';
import { ModelError } from './types';
import { formatMsOrSeconds } from '../text/duration';

export type FailureContext = {
  baseUrl: string;
  model: string;
  attempts: number;
  /** Why the retries ended, when they did. */
  stop?: 'not_retryable' | 'exhausted' | 'retry_after_too_long';
  /** True when part of the answer had already been shown, so it was not retried. */
  midStream?: boolean;
};

const times = (n: number): string =>
  ['', 'once', 'twice', 'three times', 'four times', 'five times'][n] ?? `${n} times`;
const tries = (n: number): string => (n === 1 ? '' : ` after ${n} attempts`);
const calls = (n: number): string =>
  n === 0 ? 'nothing was run' : n === 1 ? 'its tool call was not run' : `its ${n} tool calls were not run`;

const IDLE_HINT = 'raise streamIdleTimeoutSec in config.json if the server is just slow';

/** What the idle timer saw, as a clause: "sent nothing for 2 s". */
function idleClause(f: Extract<Failure, { kind: 'idle' }>): string {
  const d = `${formatMsOrSeconds(f.afterMs)} (streamIdleTimeoutSec)`;
  if (f.seen === 'nothing') return `sent nothing for ${d}`;
  if (f.seen === 'empty') return `sent only empty chunks (no part of an answer) for ${d}`;
  return `stopped sending for ${d}`;
}

/** The ModelError a person reads. */
export function toModelError(f: Failure, ctx: FailureContext): ModelError {
  const at = `The model server at ${ctx.baseUrl}`;
  if (f.kind === 'aborted') return new ModelError('The model request was cancelled.', 'aborted');
  if (f.kind === 'deadline') {
    const partial = ctx.midStream ? '; the partial answer was not kept' : '';
    return new ModelError(
      `${at} did not finish its answer within ${formatMsOrSeconds(f.afterMs)}, the limit for one answer (turnTimeoutSec)${partial}. Ask for a smaller step, or raise turnTimeoutSec in config.json.`,
      'turn_timeout',
    );
  }
  if (
    ctx.midStream &&
    (f.kind === 'network' || f.kind === 'idle' || f.kind === 'stream_error' || f.kind === 'truncated')
  ) {
    const why =
      f.kind === 'idle'
        ? `the idle timer fired: nothing arrived for ${formatMsOrSeconds(f.afterMs)} (streamIdleTimeoutSec)`
        : f.kind === 'truncated'
          ? `the stream ended with no finish_reason and no [DONE], so ${calls(f.toolCalls)}`
          : f.detail;
    return new ModelError(
      `${at} stopped mid-answer (${why}); the partial answer was not retried so nothing repeats. Try again.`,
      f.kind === 'idle' ? 'idle_timeout' : f.kind === 'truncated' ? 'truncated' : 'network',
    );
  }
  switch (f.kind) {
    case 'idle':
      return new ModelError(
        `${at} ${idleClause(f)}${tries(ctx.attempts)}; check that it is running and the model is loaded, or ${IDLE_HINT}.`,
        'idle_timeout',
      );
    case 'truncated':
      return new ModelError(
        `${at} ended its answer before it was complete (no finish_reason and no [DONE])${tries(ctx.attempts)}; ${calls(f.toolCalls)}. Try again, or check a proxy between warden and the server.`,
        'truncated',
      );
    case 'network':
      return new ModelError(
        `Could not reach the model server at ${ctx.baseUrl} (${f.detail})${tries(ctx.attempts)}; check that it is running and that OPENAI_BASE_URL is right.`,
        'network',
      );
    case 'stream_error':
      return new ModelError(
        `${at} reported an error while streaming${tries(ctx.attempts)}: ${f.detail}`,
        'http',
      );
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

/**
 * The notice shown when a failed attempt is about to be retried, or undefined when the retry is
 * quick and routine (a short backoff after a 500): the person hears about waits they would notice.
 */
export function retryNotice(
  f: Failure,
  ctx: { baseUrl: string; attempt: number; of: number; delayMs: number },
): string | undefined {
  const next = `trying again (attempt ${ctx.attempt + 1} of ${ctx.of})`;
  if (f.kind === 'idle') return `The model server at ${ctx.baseUrl} ${idleClause(f)}; ${next}.`;
  if (ctx.delayMs < 2000) return undefined;
  const what =
    f.kind === 'http'
      ? `answered ${f.status}`
      : f.kind === 'truncated'
        ? 'ended its answer early'
        : 'could not be reached';
  return `The model server at ${ctx.baseUrl} ${what}; ${next} in ${formatMsOrSeconds(ctx.delayMs)}.`;
}

function httpMessage(f: Extract<Failure, { kind: 'http' }>, ctx: FailureContext, at: string): string {
  if (ctx.stop === 'retry_after_too_long')
    return `${at} answered ${f.status} and asked to wait ${formatMsOrSeconds(f.retryAfterMs ?? 0)} before retrying (${f.detail}); try again later.`;
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
