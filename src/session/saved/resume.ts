import type { ChatMessage, ToolCallRequest } from '../../llm/types';
import type { ApprovalRequest, CoreEvent, Mode, PlanState, ToolResultEnvelope } from '../../protocol/index';
import type { SavedMessage, SessionRecord } from './store-records';

/** The step warden stopped in: the calls the model asked for and how far each got. */
export type InterruptedStep = {
  content: string | null;
  calls: ToolCallRequest[];
  /** Calls that ended (their `tool_finished`). */
  results: Map<string, ToolResultEnvelope>;
  /** Calls that had begun (their `tool_started`): one without a result may have had an effect. */
  started: Set<string>;
  /** Calls whose request was waiting for a person when warden stopped, by call id. */
  pending: Map<string, ApprovalRequest>;
};

/** What the transcript is rebuilt from, in order. */
export type ReplayItem =
  | { kind: 'user'; text: string }
  | { kind: 'event'; event: CoreEvent }
  | { kind: 'clear' };

/** A saved session put back together. */
export type RestoredSession = {
  /** The main agent's history after the system prompt. */
  history: ChatMessage[];
  replay: ReplayItem[];
  mode?: Mode;
  plan?: PlanState;
  /** Prompts the person gave (the hub's turn counter goes on from here). */
  turns: number;
  interrupted?: InterruptedStep;
  /** Requests pending when warden stopped that cannot be offered again (a sub-agent's, /undo's). */
  lost: ApprovalRequest[];
};

/**
 * Folds a session file's records into the conversation, transcript, mode, plan and the step that
 * was cut short. `mainAgentId`: the agent whose history the file holds.
 * Contract: pure; never throws on records that passed `isSessionRecord`.
 */
export function restoreSession(records: readonly SessionRecord[], mainAgentId = 'main'): RestoredSession {
  let history: ChatMessage[] = [];
  const replay: ReplayItem[] = [];
  let mode: Mode | undefined;
  let plan: PlanState | undefined;
  let turns = 0;
  let step: InterruptedStep | undefined;
  const pending = new Map<string, ApprovalRequest>();
  // The last result of each call id so far: a saved tool message may be a reference to it (store.ts).
  const results = new Map<string, ToolResultEnvelope>();
  for (const r of records) {
    switch (r.t) {
      case 'prompt':
        turns += 1;
        replay.push({ kind: 'user', text: r.text });
        break;
      case 'history':
        for (const m of r.messages) history.push(restored(m, results));
        // The step's messages are in: it ended.
        if (step && r.messages.some((m) => m.role === 'assistant' && m.tool_calls)) step = undefined;
        break;
      case 'dropped':
        history = history.slice(0, Math.max(0, history.length - r.count));
        break;
      case 'asked':
        step = {
          content: r.content,
          calls: r.calls,
          results: new Map(),
          started: new Set(),
          pending: new Map(),
        };
        break;
      case 'mode':
        mode = r.mode;
        break;
      case 'clear':
        history = [];
        plan = undefined;
        step = undefined;
        pending.clear();
        results.clear();
        replay.push({ kind: 'clear' });
        break;
      case 'event':
        foldEvent(r.event);
        replay.push({ kind: 'event', event: r.event });
        break;
      case 'meta':
        break;
    }
  }
  const lost: ApprovalRequest[] = [];
  for (const request of pending.values()) {
    const callId = request.callId;
    const open =
      step !== undefined &&
      callId !== undefined &&
      request.agentId === mainAgentId &&
      step.calls.some((c) => c.id === callId) &&
      !step.results.has(callId);
    if (open && step && callId) step.pending.set(callId, request);
    else lost.push(request);
  }
  return {
    history,
    replay,
    ...(mode ? { mode } : {}),
    ...(plan ? { plan } : {}),
    turns,
    ...(step ? { interrupted: step } : {}),
    lost,
  };

  function foldEvent(e: CoreEvent): void {
    if (e.type === 'tool_finished') results.set(e.callId, e.result);
    if (e.type === 'plan_updated') plan = { title: e.plan.title, steps: e.plan.steps.map((s) => ({ ...s })) };
    else if (e.type === 'approval_requested') pending.set(e.request.id, e.request);
    else if (e.type === 'approval_resolved') pending.delete(e.requestId);
    else if (e.type === 'tool_started' && e.agentId === mainAgentId) step?.started.add(e.callId);
    else if (e.type === 'tool_finished' && e.agentId === mainAgentId) step?.results.set(e.callId, e.result);
  }
}

/** A saved message as the model read it: a reference to a call's result becomes that result's JSON. */
function restored(m: SavedMessage, results: ReadonlyMap<string, ToolResultEnvelope>): ChatMessage {
  if (!('fromEvent' in m)) return m;
  const result = results.get(m.tool_call_id) ?? {
    status: 'error',
    by: 'gate',
    reason: 'The result of this call is missing from the saved session.',
  };
  return { role: 'tool', tool_call_id: m.tool_call_id, content: JSON.stringify(result) };
}
