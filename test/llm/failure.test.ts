import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyError, errorBodyDetail, type Failure } from '../../src/llm/failure';
import { retryNotice, toModelError } from '../../src/llm/failure-message';
import type { ModelError } from '../../src/llm/types';

const api = (
  status: number,
  message: string,
  code: string | null = null,
  headers: Record<string, string> = {},
) => APIError.generate(status, { error: { message, code } }, undefined, new Headers(headers));

describe('classifyError', () => {
  it.each([
    ['model does not support tools', 400, 'no_tool_support'],
    ["This model doesn't support tool use", 400, 'no_tool_support'],
    ['Function calling is not supported by this model', 400, 'no_tool_support'],
    ['tool_choice is unsupported', 422, 'no_tool_support'],
    ["Unsupported parameter: 'tools' is not supported with this model.", 400, 'no_tool_support'],
    ['Unrecognized request argument supplied: tools', 400, 'no_tool_support'],
    ['tools param requires --jinja flag', 500, 'no_tool_support'],
    [
      "Invalid schema for function 'read_file': In context=('properties', 'path'), 'format' is not supported",
      400,
      'http',
    ],
    ["This model's maximum context length is 8192 tokens", 400, 'context_length'],
    ['prompt is too long: 210000 tokens > 200000 maximum', 400, 'context_length'],
    ['Unrecognized request argument supplied: stream_options', 400, 'stream_options_rejected'],
    ['overloaded', 503, 'http'],
    ['bad key', 401, 'http'],
  ])('%s (%i) → %s', (message, status, kind) => {
    expect(classifyError(api(status, message)).kind).toBe(kind);
  });

  it('reads the code context_length_exceeded even when the message says little', () => {
    expect(classifyError(api(400, 'Bad request', 'context_length_exceeded')).kind).toBe('context_length');
  });

  it('prefers the raw body when the package could not read it', () => {
    const bare = APIError.generate(400, undefined, undefined, new Headers());
    const body = JSON.stringify({
      object: 'error',
      message: "This model's maximum context length is 4096 tokens.",
    });
    expect(classifyError(bare, body)).toMatchObject({
      kind: 'context_length',
      detail: "This model's maximum context length is 4096 tokens.",
    });
  });

  it('carries Retry-After with an http failure', () => {
    expect(classifyError(api(429, 'slow down', null, { 'retry-after': '2' }))).toMatchObject({
      kind: 'http',
      status: 429,
      retryAfterMs: 2000,
    });
  });

  it('finds network codes deep in the cause chain', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const err = new APIConnectionError({
      cause: new TypeError('fetch failed', { cause: new AggregateError([refused]) }),
    });
    expect(classifyError(err)).toEqual({ kind: 'network', detail: 'ECONNREFUSED' });
    expect(classifyError(new APIUserAbortError()).kind).toBe('aborted');
    expect(classifyError(new SyntaxError('Unexpected token')).kind).toBe('bad_response');
  });
});

describe('errorBodyDetail', () => {
  it.each([
    ['{"error":{"message":"a"}}', 'a'],
    ['{"error":"b"}', 'b'],
    ['{"message":"c"}', 'c'],
    ['{"detail":"d"}', 'd'],
    ['plain text', 'plain text'],
    ['', undefined],
  ])('%s → %s', (body, expected) => {
    expect(errorBodyDetail(body)).toBe(expected);
  });
});

describe('toModelError', () => {
  const ctx = { baseUrl: 'http://127.0.0.1:1/v1', model: 'm', attempts: 3 };
  it('says what happened and what to check', () => {
    expect(toModelError({ kind: 'http', status: 401, detail: 'bad key' }, ctx).message).toContain(
      'check OPENAI_API_KEY',
    );
    expect(toModelError({ kind: 'http', status: 404, detail: 'no model' }, ctx).message).toContain(
      'WARDEN_MODEL',
    );
    expect(toModelError({ kind: 'http', status: 429, detail: 'slow' }, ctx).message).toContain(
      '429 (rate limited) three times',
    );
    expect(
      toModelError({ kind: 'network', detail: 'ECONNRESET' }, { ...ctx, midStream: true }).message,
    ).toContain('mid-answer');
    expect(toModelError({ kind: 'aborted' }, ctx).code).toBe('aborted');
  });

  it.each<[Failure, boolean, ModelError['code'], string]>([
    [
      { kind: 'idle', afterMs: 120_000, seen: 'nothing' },
      false,
      'idle_timeout',
      'sent nothing for 120 s (streamIdleTimeoutSec) after 3 attempts',
    ],
    [
      { kind: 'idle', afterMs: 2_000, seen: 'empty' },
      false,
      'idle_timeout',
      'sent only empty chunks (no part of an answer) for 2 s (streamIdleTimeoutSec)',
    ],
    [
      { kind: 'idle', afterMs: 2_000, seen: 'answer' },
      true,
      'idle_timeout',
      'stopped mid-answer (the idle timer fired: nothing arrived for 2 s (streamIdleTimeoutSec))',
    ],
    [
      { kind: 'deadline', afterMs: 600_000 },
      false,
      'turn_timeout',
      'did not finish its answer within 600 s, the limit for one answer (turnTimeoutSec). Ask for a smaller step, or raise turnTimeoutSec',
    ],
    [{ kind: 'deadline', afterMs: 600_000 }, true, 'turn_timeout', 'the partial answer was not kept'],
    [
      { kind: 'truncated', toolCalls: 2 },
      false,
      'truncated',
      'no finish_reason and no [DONE]) after 3 attempts; its 2 tool calls were not run',
    ],
    [
      { kind: 'truncated', toolCalls: 0 },
      true,
      'truncated',
      'stopped mid-answer (the stream ended with no finish_reason and no [DONE], so nothing was run)',
    ],
  ])('%o (shown: %s) → %s', (failure, midStream, code, text) => {
    const err = toModelError(failure, { ...ctx, midStream });
    expect(err.code).toBe(code);
    expect(err.message).toContain(text);
  });

  it.each<[Failure, number, string | undefined]>([
    [
      { kind: 'idle', afterMs: 1_000, seen: 'nothing' },
      1,
      'sent nothing for 1 s (streamIdleTimeoutSec); trying again (attempt 2 of 4).',
    ],
    [{ kind: 'http', status: 503, detail: 'busy' }, 10, undefined],
    [
      { kind: 'http', status: 429, detail: 'slow' },
      5_000,
      'answered 429; trying again (attempt 2 of 4) in 5 s.',
    ],
  ])('retry notice for %o after %i ms', (failure, delayMs, text) => {
    const notice = retryNotice(failure, { baseUrl: ctx.baseUrl, attempt: 1, of: 4, delayMs });
    if (text === undefined) expect(notice).toBeUndefined();
    else expect(notice).toContain(text);
  });
});
