import type { ChatMessage, ModelClient, ToolCallRequest, ToolSpec, Usage } from '../llm/types';
import { ModelError, isAbortError } from '../llm/types';
import type { CoreEvent, ToolResultEnvelope } from '../protocol';
import type { Caller, ToolCall } from '../gate/gate';

/** The gate as the agent sees it: one door, no executors. */
export type GateDoor = { intercept(call: ToolCall, caller: Caller): Promise<ToolResultEnvelope> };

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

export type TurnResult = { status: 'done' | 'failed' | 'cancelled'; text: string };

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
export async function runTurn(history: ChatMessage[], tools: ToolSpec[], caller: Caller, deps: LoopDeps): Promise<TurnResult> {
  const { emit, model } = deps;
  for (let step = 1; step <= deps.maxSteps; step++) {
    if (caller.signal.aborted) return cancelled(caller, emit);
    const estimate = estimateTokens(history, tools);
    if (estimate > deps.contextWindowTokens) {
      return fail(caller, emit, `The conversation (about ${estimate} tokens) no longer fits the model's context of ${deps.contextWindowTokens} tokens. Start afresh with /clear, or ask for a smaller step.`);
    }
    let text = '';
    let calls: ToolCallRequest[];
    try {
      const turn = await model.complete({
        messages: history,
        tools,
        signal: caller.signal,
        onText: (delta) => {
          text += delta;
          emit({ type: 'message_delta', agentId: caller.agentId, text: delta });
        },
      });
      text = turn.text;
      calls = turn.toolCalls;
      if (turn.usage) deps.onUsage?.(turn.usage);
    } catch (err) {
      if (isAbortError(err) || caller.signal.aborted) return cancelled(caller, emit);
      return fail(caller, emit, err instanceof ModelError ? err.message : `The model call failed: ${(err as Error).message}`);
    }
    if (text) emit({ type: 'message_done', agentId: caller.agentId, text });
    history.push({ role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) });
    if (calls.length === 0) {
      emit({ type: 'turn_done', agentId: caller.agentId, text });
      return { status: 'done', text };
    }
    const why = text.trim() ? text.trim().slice(-400) : undefined;
    const results = await runCalls(calls, why, caller, deps);
    for (const [i, call] of calls.entries()) {
      history.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(results[i]) });
    }
  }
  return fail(caller, emit, `Stopped after ${deps.maxSteps} steps in one turn (maxStepsPerTurn). Say "continue" to go on.`);
}

/** Read-only calls run side by side; the others one after another, in the order the model gave. */
async function runCalls(calls: ToolCallRequest[], why: string | undefined, caller: Caller, deps: LoopDeps): Promise<ToolResultEnvelope[]> {
  const results: ToolResultEnvelope[] = new Array(calls.length);
  const one = async (i: number) => {
    const call = calls[i] as ToolCallRequest;
    if (caller.signal.aborted) {
      results[i] = { status: 'cancelled', by: 'user', reason: 'The turn was cancelled before this call ran.' };
      return;
    }
    const args = call.function.arguments;
    deps.emit({ type: 'tool_started', agentId: caller.agentId, callId: call.id, tool: call.function.name, args: parseForDisplay(args) });
    const result = await deps.gate.intercept({ id: call.id, tool: call.function.name, args, ...(why ? { why } : {}) }, caller);
    results[i] = result;
    deps.emit({ type: 'tool_finished', agentId: caller.agentId, callId: call.id, tool: call.function.name, result });
  };
  const parallel = calls.flatMap((c, i) => (deps.runsInParallel(c.function.name) ? [i] : []));
  await Promise.all(parallel.map(one));
  for (let i = 0; i < calls.length; i++) if (!parallel.includes(i)) await one(i);
  return results;
}

function parseForDisplay(args: string): unknown {
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

function fail(caller: Caller, emit: LoopDeps['emit'], message: string): TurnResult {
  emit({ type: 'error', message });
  emit({ type: 'turn_done', agentId: caller.agentId, text: '' });
  return { status: 'failed', text: message };
}
