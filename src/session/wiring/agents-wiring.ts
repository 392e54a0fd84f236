import type { CheckpointStore } from '../../agent/checkpoints';
import { DEFAULT_ESCALATION, type EscalationThresholds } from '../../agent/escalation';
import { AgentHub } from '../../agent/hub';
import type { TurnJournal } from '../../agent/turn-journal';
import type { Gate } from '../../gate/gate';
import type { AnswerHooks, ModelClient } from '../../llm/types';
import type { CoreEvent, CoreState } from '../../protocol';
import { ContextControl } from '../context-control';
import type { Feedback } from '../feedback/feedback';
import type { SessionSettings } from '../session-settings';
import type { SessionState } from '../session-state';
import type { HubRef } from './gate-wiring';

/**
 * The agents and the context figure they are watched by (/compact, /model): the context asks the hub
 * through `hubRef`, which is set here as soon as the hub is built.
 */
export function wireAgents(d: {
  model: ModelClient;
  gate: Gate;
  hubRef: HubRef;
  state: CoreState;
  view: SessionState;
  settings: SessionSettings;
  feedback: Feedback;
  checkpoints: CheckpointStore;
  journal: TurnJournal;
  readOnly: ReadonlySet<string>;
  escalateTool: string;
  root: string;
  maxStepsPerTurn: number;
  contextWindowTokens: number;
  offerCompact?: boolean | undefined;
  approvalTimeoutSec: number;
  escalation?: EscalationThresholds | undefined;
  /** The instruction files' block of the system prompt (session-instructions.ts). */
  instructions: () => string | undefined;
  /** A request went out; a tool call's name has streamed: what it needs starts loading (the shell grammar). */
  answerHooks?: AnswerHooks;
  emit: (event: CoreEvent) => void;
}): { hub: AgentHub; context: ContextControl } {
  const { gate, hubRef, state } = d;
  const context = new ContextControl({
    model: d.model,
    hub: {
      get busy(): boolean {
        return hubRef.get().busy;
      },
      conversation: () => hubRef.get().conversation(),
      replaceHistory: (messages) => hubRef.get().replaceHistory(messages),
    },
    emit: d.emit,
    state,
    window: d.contextWindowTokens,
    offer: d.offerCompact === true,
    offerTimeoutMs: d.approvalTimeoutSec * 1000,
    tools: () => gate.specs(false),
  });
  const hub = new AgentHub({
    model: d.model,
    gate,
    emit: d.emit,
    maxSteps: d.maxStepsPerTurn,
    contextWindowTokens: d.contextWindowTokens,
    contextWatch: context,
    runsInParallel: (name) => d.readOnly.has(name),
    ...(d.answerHooks ? { answerHooks: d.answerHooks } : {}),
    onUsage: (u) => {
      state.usage.responses += 1;
      if (!u) return;
      state.usage.promptTokens += u.promptTokens;
      state.usage.completionTokens += u.completionTokens;
    },
    specs: (sub) => gate.specs(sub),
    checkpoints: d.checkpoints,
    root: d.root,
    mode: () => d.settings.mode,
    journal: d.journal,
    context: (): string | undefined => d.feedback.context(),
    escalation: { thresholds: d.escalation ?? DEFAULT_ESCALATION, tool: d.escalateTool },
    recordCancel: (task, reason) => gate.recordCancel(task, reason),
    instructions: d.instructions,
  });
  hubRef.set(hub);
  return { hub, context };
}
