import { boundCall, boundResult, historyLimits } from '../../agent/history-bound';
import type { Caller, ToolCall } from '../../gate/gate';
import type { ChatMessage, ToolCallRequest } from '../../llm/types';
import type { CoreEvent, ToolResultEnvelope } from '../../protocol/index';
import type { InterruptedStep } from './resume';

export type SettleDeps = {
  gate: {
    intercept(call: ToolCall, caller: Caller): Promise<ToolResultEnvelope>;
    summary(tool: string, args: unknown): string;
  };
  emit: (event: CoreEvent) => void;
  contextWindowTokens: number;
  /** Closes the audit record of a call that had begun when warden stopped (its decision has no outcome line). */
  recordInterrupted?: (tool: string, rawArgs: string) => void;
};

/** What the model reads for a call that had begun when warden stopped: it may or may not have had its effect. */
export const INTERRUPTED: ToolResultEnvelope = {
  status: 'error',
  by: 'gate',
  reason:
    'interrupted: warden stopped while this call was running, so whether it took effect is unknown. Check (read the file, list the folder) before making it again.',
  retry: true,
};

/** What the model reads for a call whose arguments held a secret: secrets are never saved, so it cannot be made again from disk. */
export const SECRET_LOST: ToolResultEnvelope = {
  status: 'error',
  by: 'gate',
  reason:
    'interrupted: warden stopped before this call ran, and its arguments held a secret, which is never saved to disk; nothing ran. Make the call again if it is still wanted.',
  retry: true,
};

const REDACTED = '[REDACTED:';

/**
 * Ends the unfinished calls of the step warden stopped in, in the model's order, as the main agent:
 * a call that had a result keeps it; one whose request was waiting for a person goes through the gate
 * again as a new request marked `resumedFrom` (schema, guards, policy as it is now, expiry from the
 * first ask, arguments' hash, a new preview and token — the old request's approval, if any, never
 * runs); one that never began goes through the gate like any call; one that had begun is reported
 * `interrupted` and never made again. Returns the assistant message and the tool messages.
 * Contract: never throws (the gate never does); every call gets exactly one tool message.
 */
export async function settleInterrupted(
  step: InterruptedStep,
  caller: Caller,
  d: SettleDeps,
): Promise<ChatMessage[]> {
  const limits = historyLimits(d.contextWindowTokens);
  const results: ToolResultEnvelope[] = [];
  for (const call of step.calls) {
    const done = step.results.get(call.id);
    if (done) {
      results.push(done);
      continue;
    }
    results.push(await settleOne(call, step, caller, d));
  }
  return [
    {
      role: 'assistant',
      content: step.content,
      tool_calls: step.calls.map((call, i) => boundCall(call, limits.argChars, results[i])),
    },
    ...step.calls.map(
      (call, i): ChatMessage => ({
        role: 'tool',
        tool_call_id: call.id,
        content: boundResult(results[i] as ToolResultEnvelope, limits.resultChars),
      }),
    ),
  ];
}

async function settleOne(
  call: ToolCallRequest,
  step: InterruptedStep,
  caller: Caller,
  d: SettleDeps,
): Promise<ToolResultEnvelope> {
  const tool = call.function.name;
  const request = step.pending.get(call.id);
  const args = request ? request.args : parseArgs(call.function.arguments);
  d.emit({
    type: 'tool_started',
    agentId: caller.agentId,
    callId: call.id,
    tool,
    args,
    summary: d.gate.summary(tool, args),
  });
  let result: ToolResultEnvelope;
  if (caller.signal.aborted)
    result = { status: 'cancelled', by: 'user', reason: 'The turn was cancelled before this call ran.' };
  else if (request)
    result = await d.gate.intercept(
      {
        id: call.id,
        tool,
        args: request.args,
        ...(request.why ? { why: request.why } : {}),
        resumedFrom: {
          requestId: request.id,
          createdAt: request.createdAt,
          argsHash: request.argsHash,
          ...(request.preImageHash ? { preImageHash: request.preImageHash } : {}),
        },
      },
      caller,
    );
  else if (step.started.has(call.id)) {
    result = INTERRUPTED;
    d.recordInterrupted?.(tool, call.function.arguments);
  }
  // Arguments saved redacted would run with the marker in place of the secret.
  else if (call.function.arguments.includes(REDACTED)) result = SECRET_LOST;
  else result = await d.gate.intercept({ id: call.id, tool, args: call.function.arguments }, caller);
  d.emit({ type: 'tool_finished', agentId: caller.agentId, callId: call.id, tool, result });
  return result;
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
