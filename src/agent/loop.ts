/**
 * One agent's turn: model request → tool calls through the gate → results, until the model answers
 * without calls, the step limit, a cancel, or an escalation. Over 400 lines: the turn's endings
 * (cancelled, failed, escalated) share the loop's small helpers for events and results, and read
 * best in the order they happen; the escalation rule itself lives in escalation.ts.
 */
import type {
  ChatMessage,
  ModelClient,
  ModelErrorCode,
  ModelTurn,
  ToolCallRequest,
  ToolSpec,
  Usage,
} from '../llm/types';
import { messageJson } from '../llm/request-body';
import { type AnswerHooks, ModelError, isAbortError } from '../llm/types';
import type { CoreEvent, EscalationTrigger, ToolBatch, ToolResultEnvelope, TurnStop } from '../protocol';
import type { Caller, ToolCall } from '../gate/gate';
import {
  type EscalationThresholds,
  FailureWatch,
  type Observed,
  escalateArgs,
  escalationAnswerOf,
} from './escalation';
import { breather } from './breather';
import { boundCall, boundResult, headTail, historyLimits } from './history-bound';
import type { TurnJournal } from './turn-journal';

/**
 * The gate as the agent sees it: one door, no executors; `summary` is the tool's own line for a call's
 * card (of the raw JSON the model sent, or of arguments already parsed).
 */
export type GateDoor = {
  intercept(call: ToolCall, caller: Caller): Promise<ToolResultEnvelope>;
  summary?(tool: string, args: unknown): string;
  /** The gate's "same call" key for repeat rejections (escalation counts rejections of similar calls by it). */
  similarKey?(tool: string, args: unknown): string | undefined;
};

/** Pause and the person's inbox, as the loop sees them (src/agent/pause.ts). */
export type LoopControl = {
  /** Resolves once the agent may go on (not paused, or cancelled). Contract: never rejects. */
  hold(caller: Caller): Promise<void>;
  /** What the person said or did for this agent since its last model request. */
  drain(agentId: string): string[];
  /** Pauses the agent (the person took over from an escalation). */
  pause(agentId: string): void;
};

export type LoopDeps = {
  model: ModelClient;
  gate: GateDoor;
  emit: (event: CoreEvent) => void;
  maxSteps: number;
  contextWindowTokens: number;
  /** Tools whose calls of one turn may run side by side (read-only ones). */
  runsInParallel: (tool: string) => boolean;
  /** After each model response: its usage, when the server reported one (the run counts its turns). */
  onUsage?: (usage: Usage | undefined) => void;
  /**
   * A request went out (the model's think time starts); a tool call's name has streamed (its
   * arguments are still coming): ready what it will need.
   */
  answerHooks?: AnswerHooks;
  control?: LoopControl;
  /** The hard rule that stops an agent and asks the person; `tool` is the escalate tool the card goes through. */
  escalation?: { thresholds: EscalationThresholds; tool: string };
  /** Watches the context window around each request (context figure, the /compact offer before overflow). */
  contextWatch?: ContextWatch;
};

/** The context window as the session watches it (src/session/context-control.ts); it ignores sub-agents. */
export type ContextWatch = {
  /**
   * Before a model request: measures `history`; near the window's end it may pause the turn to offer
   * /compact, and an accepted summary replaces `history` in place. Contract: never rejects.
   */
  beforeRequest(history: ChatMessage[], tools: ToolSpec[], caller: Caller): Promise<void>;
  /** After a response to the first `sent` messages of `history`: the server's usage when it reported one. */
  afterResponse(
    history: readonly ChatMessage[],
    sent: number,
    usage: Usage | undefined,
    caller: Caller,
  ): void;
};

/** How a turn ended; `stop` says why when it ended early. */
export type TurnResult = { status: 'done' | 'failed' | 'cancelled'; text: string; stop?: TurnStop };

// Arguments shown on a tool card (and in --json output) past this are summarised like the history's.
const DISPLAY_ARG_CHARS = 64 * 1024;

// The tools never change in a session, so they are measured once.
const measured = new WeakMap<object, number>();
const sizeOf = (value: object): number => {
  let size = measured.get(value);
  if (size === undefined) {
    size = JSON.stringify(value).length;
    measured.set(value, size);
  }
  return size;
};

/**
 * About 3.5 characters a token: a cheap, deliberately pessimistic estimate. A message is measured
 * by its JSON as sent, which the request reuses (llm/request-body.ts): serialised once for both.
 */
export function estimateTokens(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): number {
  let chars = sizeOf(tools);
  for (const m of messages) chars += messageJson(m).length;
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
  journal?: TurnJournal,
): Promise<TurnResult> {
  const { emit, model } = deps;
  const limits = historyLimits(deps.contextWindowTokens);
  const watch = deps.escalation ? new FailureWatch(deps.escalation.thresholds) : undefined;
  let budget = deps.maxSteps;
  for (let step = 1; ; step++) {
    if (step > budget) {
      // The step limit is a hard rule too: the person may give more steps instead of the turn failing.
      if (!watch) break;
      const next = await escalate('max_steps', watch, history, caller, deps);
      if (next.kind === 'stop') return next.result;
      budget += deps.maxSteps;
    }
    // Paused: no new model request until resumed; then what the person said and did comes first.
    await deps.control?.hold(caller);
    if (caller.signal.aborted) return cancelled(caller, emit);
    const notes = deps.control?.drain(caller.agentId) ?? [];
    if (notes.length > 0) history.push({ role: 'user', content: notes.join('\n\n') });
    if (deps.contextWatch) {
      // Near the window's end warden offers /compact first; declined, the hard bound below still holds.
      await deps.contextWatch.beforeRequest(history, tools, caller);
      if (caller.signal.aborted) return cancelled(caller, emit);
    }
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
        ...deps.answerHooks,
      });
      text = turn.text;
      deps.onUsage?.(turn.usage);
      deps.contextWatch?.afterResponse(history, history.length, turn.usage, caller);
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
      journal?.sync(history);
      emit({ type: 'turn_done', agentId: caller.agentId, text });
      return { status: 'done', text };
    }
    const why = text.trim() ? text.trim().slice(-400) : undefined;
    // Saved before any call runs: warden stopping now leaves a step a resume can settle (src/session/saved/).
    journal?.sync(history);
    journal?.asked(content, calls);
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
    journal?.sync(history);
    // Cancelled while its calls ran: no further model request.
    if (caller.signal.aborted) return cancelled(caller, emit);
    const trigger = watch && observe(watch, calls, results, caller, deps);
    if (trigger) {
      const next = await escalate(trigger, watch, history, caller, deps);
      if (next.kind === 'stop') return next.result;
    }
  }
  return fail(caller, emit, maxStepsMessage(deps), 'max_steps');
}

function maxStepsMessage(deps: LoopDeps): string {
  return `Stopped after ${deps.maxSteps} steps in one turn (maxStepsPerTurn). Say "continue" to go on.`;
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

// Numbers the batches of calls that run side by side (their ids only need to differ within a process).
let batches = 0;
/** How many calls of one batch run at once; the rest begin as those finish, in the model's order. */
export const SIDE_BY_SIDE = 64;

/** Read-only calls run side by side; the others one after another, in the order the model gave. */
async function runCalls(
  calls: ToolCallRequest[],
  why: string | undefined,
  caller: Caller,
  deps: LoopDeps,
): Promise<ToolResultEnvelope[]> {
  const results: ToolResultEnvelope[] = new Array(calls.length);
  const side = calls.map((c) => deps.runsInParallel(c.function.name));
  const one = async (i: number) => {
    const call = calls[i] as ToolCallRequest;
    // Paused: a new call waits (it does not fail); calls already in flight finish.
    if (!caller.signal.aborted) await deps.control?.hold(caller);
    deps.emit(started(call, caller, deps, side[i] ? batch : undefined));
    if (caller.signal.aborted) {
      // Shown and told as cancelled, like the card the person cancelled: it never reaches the gate.
      const result: ToolResultEnvelope = {
        status: 'cancelled',
        by: 'user',
        reason: cancelReason(caller, 'before this call ran'),
      };
      results[i] = result;
      deps.emit({
        type: 'tool_finished',
        agentId: caller.agentId,
        callId: call.id,
        tool: call.function.name,
        result,
      });
      return;
    }
    // What the call prints while it runs goes out as it comes (the session coalesces it).
    const onOutput = (chunk: string) =>
      deps.emit({ type: 'tool_output', agentId: caller.agentId, callId: call.id, chunk });
    const result = await deps.gate.intercept(
      {
        id: call.id,
        tool: call.function.name,
        args: call.function.arguments,
        ...(why ? { why } : {}),
        onOutput,
      },
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
  const together = side.filter(Boolean).length;
  const batch = together > 1 ? { id: `batch-${++batches}`, size: together } : undefined;
  // At most SIDE_BY_SIDE at a time: a burst of thousands of reads would otherwise hold thousands of
  // open files (past a descriptor limit) and calls in flight at once, for no gain (the disk is shared).
  const queue = calls.flatMap((_, i) => (side[i] ? [i] : []));
  let next = 0;
  const breathe = breather();
  const lane = async () => {
    while (next < queue.length) {
      await breathe();
      if (next < queue.length) await one(queue[next++] as number);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SIDE_BY_SIDE, queue.length) }, lane));
  for (let i = 0; i < calls.length; i++) if (!side[i]) await one(i);
  return results;
}

/**
 * The summary each call's `tool_started` event carried, for the failure watch's line of the same call
 * after it ran (the same arguments give the same summary): a burst of thousands of calls parsed and
 * validated every call's arguments a second time just for that line.
 */
const startedSummaries = new WeakMap<ToolCallRequest, string | undefined>();

/** A call's `tool_started` event, with the tool's own one-line summary when the gate has one. */
function started(call: ToolCallRequest, caller: Caller, deps: LoopDeps, batch?: ToolBatch): CoreEvent {
  const args = displayArgs(call);
  // Arguments shown whole are passed as the model sent them: the gate keeps their parse for the call.
  const raw = call.function.arguments;
  const summary = deps.gate.summary?.(call.function.name, raw.length <= DISPLAY_ARG_CHARS ? raw : args);
  startedSummaries.set(call, summary);
  return {
    type: 'tool_started',
    agentId: caller.agentId,
    callId: call.id,
    tool: call.function.name,
    args,
    ...(summary !== undefined ? { summary } : {}),
    ...(caller.step ? { step: caller.step } : {}),
    ...(batch ? { batch } : {}),
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

/** Feeds a step's results to the watch and returns the first trigger; the model's own escalation answered "take over" pauses it. */
function observe(
  watch: FailureWatch,
  calls: ToolCallRequest[],
  results: ToolResultEnvelope[],
  caller: Caller,
  deps: LoopDeps,
): EscalationTrigger | undefined {
  const seen: Observed[] = [];
  for (const [i, call] of calls.entries()) {
    const result = results[i] as ToolResultEnvelope;
    const name = call.function.name;
    if (name === deps.escalation?.tool) {
      // The model escalated itself and the person answered: counting starts again; take over pauses it.
      watch.reset();
      if (escalationAnswerOf(result.data)?.choice === 'take_over') deps.control?.pause(caller.agentId);
      continue;
    }
    const summary = startedSummaries.has(call)
      ? startedSummaries.get(call)
      : deps.gate.summary?.(name, displayArgs(call));
    const line = `${name} ${summary ?? ''}`.trim();
    const key = result.status === 'rejected' ? deps.gate.similarKey?.(name, displayArgs(call)) : undefined;
    seen.push({ line, result, similarKey: key });
  }
  return watch.observeStep(seen);
}

type Next = { kind: 'go' } | { kind: 'stop'; result: TurnResult };

/**
 * Stops the agent and asks the person with an escalation card, through the gate like any call (so
 * it is queued, audited and answered in the drawer). Retry adds the person's instruction, take over
 * pauses the agent, skip tells it to go on without the step; cancel ends the task; no answer (no
 * person, a timeout) ends the turn as `escalated`. Contract: never throws.
 */
async function escalate(
  trigger: EscalationTrigger,
  watch: FailureWatch,
  history: ChatMessage[],
  caller: Caller,
  deps: LoopDeps,
): Promise<Next> {
  const tool = deps.escalation?.tool ?? '';
  const goal = history.find((m) => m.role === 'user')?.content ?? '';
  const step = caller.step ? ` (plan step ${caller.step.index}: ${caller.step.title ?? ''})` : '';
  const card = watch.card(trigger, `${goal}${step}`, deps.maxSteps);
  const call: ToolCallRequest = {
    id: `escalation-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
    type: 'function',
    function: { name: tool, arguments: JSON.stringify(escalateArgs(card)) },
  };
  deps.emit(started(call, caller, deps));
  // `internal`: the loop's own card, whose trigger (the hard rule that tripped) a model may not set.
  const result = await deps.gate.intercept(
    { id: call.id, tool, args: escalateArgs(card), internal: true },
    caller,
  );
  deps.emit({ type: 'tool_finished', agentId: caller.agentId, callId: call.id, tool, result });
  watch.reset();
  if (caller.signal.aborted) return { kind: 'stop', result: cancelled(caller, deps.emit) };
  const said = `You were stopped and the person was asked for help: ${card.needs}`;
  const answer = result.status === 'executed' ? escalationAnswerOf(result.data) : undefined;
  if (answer?.choice === 'retry') {
    const how = answer.instruction ? ` with this instruction: ${answer.instruction}` : '';
    history.push({ role: 'user', content: `${said}\nThe person answered: retry${how}.` });
    return { kind: 'go' };
  }
  if (answer?.choice === 'take_over') {
    deps.control?.pause(caller.agentId);
    history.push({
      role: 'user',
      content: `${said}\nThe person took over this step by hand; what they did and their note follow.`,
    });
    return { kind: 'go' };
  }
  if (result.status === 'skipped') {
    history.push({
      role: 'user',
      content: `${said}\nThe person says: skip this step and go on with the next one; do not retry it.`,
    });
    return { kind: 'go' };
  }
  const unanswered = `No answer let it go on (${result.status}: ${result.reason ?? ''}).`;
  // The step limit keeps its own stop and wording (headless runs and scripts read them).
  if (trigger === 'max_steps')
    return {
      kind: 'stop',
      result: fail(caller, deps.emit, `${maxStepsMessage(deps)} ${unanswered}`, 'max_steps'),
    };
  const message = `${caller.agentName} stopped and escalated: ${card.needs} ${unanswered}`;
  return { kind: 'stop', result: fail(caller, deps.emit, message, 'escalated') };
}

/** The reason a cancelled call gives the model: the task_cancelled code and who cancelled. */
function cancelReason(caller: Caller, when: string): string {
  const why = typeof caller.signal.reason === 'string' ? caller.signal.reason : 'The turn was cancelled.';
  return `task_cancelled: ${why} (${when})`;
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
