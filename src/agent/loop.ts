import type {
  ChatMessage,
  ModelClient,
  ModelErrorCode,
  ModelTurn,
  ToolCallRequest,
  ToolSpec,
  Usage,
} from '../llm/types';
import { ModelError, isAbortError } from '../llm/types';
import type { CoreEvent, ToolResultEnvelope, TurnStop } from '../protocol';
import type { Caller, ToolCall } from '../gate/gate';
import { boundCall, boundResult, headTail, historyLimits } from './history-bound';

/** The gate as the agent sees it: one door, no executors; `summary` is the tool's own line for a call's card. */
export type GateDoor = {
  intercept(call: ToolCall, caller: Caller): Promise<ToolResultEnvelope>;
  summary?(tool: string, args: unknown): string;
};

export type LoopDeps = {
  model: ModelClient;
  gate: GateDoor;
  emit: (event: CoreEvent) => void;
  maxSteps: number;
  contextWindowTokens: number;
  /** Tools whose calls of one turn may run side by side (read-only ones). */
  runsInParallel: (tool: string) => boolean;
  onUsage?: (usage: Usage) => void;
};

/** How a turn ended; `stop` says why when it ended early. */
export type TurnResult = { status: 'done' | 'failed' | 'cancelled'; text: string; stop?: TurnStop };

// Arguments shown on a tool card (and in --json output) past this are summarised like the history's.
const DISPLAY_ARG_CHARS = 64 * 1024;

// Messages never change once in the history, so each is measured once (a long session would
// otherwise re-serialise its whole history on every step).
const measured = new WeakMap<object, number>();
const sizeOf = (value: object): number => {
  let size = measured.get(value);
  if (size === undefined) {
    size = JSON.stringify(value).length;
    measured.set(value, size);
  }
  return size;
};

/** About 3.5 characters a token: a cheap, deliberately pessimistic estimate. */
export function estimateTokens(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): number {
  let chars = sizeOf(tools);
  for (const m of messages) chars += sizeOf(m);
  return Math.ceil(chars / 3.5);
}

/**
 * Runs one turn of one agent: ask the model, pass every tool call through the gate, feed the
 * results back, until the model answers without tool calls.
 * Contract: never throws; the history stays valid (every tool call gets a tool message), and
 * failures end the turn with a clear message and an `error` event.
 */
export async function runTurn(
  history: ChatMessage[],
  tools: ToolSpec[],
  caller: Caller,
  deps: LoopDeps,
): Promise<TurnResult> {
  const { emit, model } = deps;
  const limits = historyLimits(deps.contextWindowTokens);
  for (let step = 1; step <= deps.maxSteps; step++) {
    if (caller.signal.aborted) return cancelled(caller, emit);
    const estimate = estimateTokens(history, tools);
    if (estimate > deps.contextWindowTokens) {
      return fail(
        caller,
        emit,
        `The conversation (about ${estimate} tokens) no longer fits the model's context of ${deps.contextWindowTokens} tokens. Start afresh with /clear, or ask for a smaller step.`,
        'context_window',
      );
    }
    let text = '';
    let turn: ModelTurn;
    try {
      turn = await model.complete({
        messages: history,
        tools,
        signal: caller.signal,
        onText: (delta) => {
          text += delta;
          emit({ type: 'message_delta', agentId: caller.agentId, text: delta });
        },
        onRetry: (notice) => emit({ type: 'notice', level: 'warn', text: notice }),
      });
      text = turn.text;
      if (turn.usage) deps.onUsage?.(turn.usage);
    } catch (err) {
      if (isAbortError(err) || caller.signal.aborted) return cancelled(caller, emit);
      if (err instanceof ModelError) return fail(caller, emit, err.message, stopOf(err.code));
      return fail(caller, emit, `The model call failed: ${(err as Error).message}`, 'model_error');
    }
    const calls = turn.toolCalls;
    if (text) emit({ type: 'message_done', agentId: caller.agentId, text });
    const content = text ? headTail(text, limits.textChars) : null;
    if (calls.length === 0) {
      history.push({ role: 'assistant', content });
      emit({ type: 'turn_done', agentId: caller.agentId, text });
      return { status: 'done', text };
    }
    const why = text.trim() ? text.trim().slice(-400) : undefined;
    // Cut at the output limit, the last call's arguments are incomplete: none of them runs.
    const results =
      turn.finishReason === 'length'
        ? cutShort(calls, caller, deps)
        : await runCalls(calls, why, caller, deps);
    history.push({
      role: 'assistant',
      content,
      tool_calls: calls.map((call, i) => boundCall(call, limits.argChars, results[i])),
    });
    for (const [i, call] of calls.entries()) {
      history.push({
        role: 'tool',
        tool_call_id: call.id,
        content: boundResult(results[i] as ToolResultEnvelope, limits.resultChars),
      });
    }
  }
  return fail(
    caller,
    emit,
    `Stopped after ${deps.maxSteps} steps in one turn (maxStepsPerTurn). Say "continue" to go on.`,
    'max_steps',
  );
}

/** Results for calls that were cut at the model's output limit: none ran, and the model is told why. */
function cutShort(calls: ToolCallRequest[], caller: Caller, deps: LoopDeps): ToolResultEnvelope[] {
  const { emit } = deps;
  emit({
    type: 'notice',
    level: 'warn',
    text: `The model's answer hit its output limit (finish_reason "length") in the middle of ${calls.length === 1 ? 'a tool call' : `${calls.length} tool calls`}; ${calls.length === 1 ? 'it was' : 'they were'} not run, and the model was asked for smaller steps.`,
  });
  for (const call of calls) emit(started(call, caller, deps));
  return calls.map((call) => {
    const result: ToolResultEnvelope = {
      status: 'error',
      by: 'gate',
      reason:
        'truncated: your answer reached the output token limit before this call was complete, so it was not run. Make smaller calls (for example, write a large file in parts).',
      retry: true,
    };
    emit({
      type: 'tool_finished',
      agentId: caller.agentId,
      callId: call.id,
      tool: call.function.name,
      result,
    });
    return result;
  });
}

const STOPS: Partial<Record<ModelErrorCode, TurnStop>> = {
  idle_timeout: 'idle_timeout',
  turn_timeout: 'turn_timeout',
  truncated: 'truncated',
  context_length: 'context_window',
};
const stopOf = (code: ModelErrorCode): TurnStop => STOPS[code] ?? 'model_error';

/** Read-only calls run side by side; the others one after another, in the order the model gave. */
async function runCalls(
  calls: ToolCallRequest[],
  why: string | undefined,
  caller: Caller,
  deps: LoopDeps,
): Promise<ToolResultEnvelope[]> {
  const results: ToolResultEnvelope[] = new Array(calls.length);
  const one = async (i: number) => {
    const call = calls[i] as ToolCallRequest;
    if (caller.signal.aborted) {
      results[i] = {
        status: 'cancelled',
        by: 'user',
        reason: 'The turn was cancelled before this call ran.',
      };
      return;
    }
    deps.emit(started(call, caller, deps));
    const result = await deps.gate.intercept(
      { id: call.id, tool: call.function.name, args: call.function.arguments, ...(why ? { why } : {}) },
      caller,
    );
    results[i] = result;
    deps.emit({
      type: 'tool_finished',
      agentId: caller.agentId,
      callId: call.id,
      tool: call.function.name,
      result,
    });
  };
  const parallel = calls.flatMap((c, i) => (deps.runsInParallel(c.function.name) ? [i] : []));
  await Promise.all(parallel.map(one));
  for (let i = 0; i < calls.length; i++) if (!parallel.includes(i)) await one(i);
  return results;
}

/** A call's `tool_started` event, with the tool's own one-line summary when the gate has one. */
function started(call: ToolCallRequest, caller: Caller, deps: LoopDeps): CoreEvent {
  const args = displayArgs(call);
  const summary = deps.gate.summary?.(call.function.name, args);
  return {
    type: 'tool_started',
    agentId: caller.agentId,
    callId: call.id,
    tool: call.function.name,
    args,
    ...(summary !== undefined ? { summary } : {}),
  };
}

/** The arguments a tool card shows: parsed, with a huge value summarised (the gate gets them whole). */
function displayArgs(call: ToolCallRequest): unknown {
  const args = boundCall(call, DISPLAY_ARG_CHARS).function.arguments;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function cancelled(caller: Caller, emit: LoopDeps['emit']): TurnResult {
  emit({ type: 'turn_done', agentId: caller.agentId, text: '' });
  return { status: 'cancelled', text: 'The turn was cancelled.' };
}

function fail(caller: Caller, emit: LoopDeps['emit'], message: string, stop: TurnStop): TurnResult {
  emit({ type: 'error', message });
  emit({ type: 'turn_done', agentId: caller.agentId, text: '', stop });
  return { status: 'failed', text: message, stop };
}
