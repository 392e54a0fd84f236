import { randomUUID } from 'node:crypto';
import type { Caller } from '../gate/gate';
import type { ChatMessage, ToolSpec } from '../llm/types';
import type { AgentInfo, AgentStatus, Mode, PlanState } from '../protocol';
import type { AgentPorts, SubAgentReport } from '../tools/types';
import type { CheckpointStore } from './checkpoints';
import { type LoopDeps, type TurnResult, runTurn } from './loop';
import { systemPrompt } from './system-prompt';

export type HubDeps = LoopDeps & {
  /** Tool specs offered to an agent; sub-agents get every tool but spawn_agents. */
  specs: (forSubAgent: boolean) => ToolSpec[];
  checkpoints: CheckpointStore;
  root: string;
  mode: () => Mode;
  agentsMd?: string;
};

const MAIN = { id: 'main', name: 'main' };

/**
 * The agents of a session: the main agent (one history across prompts) and the sub-agents it
 * spawns, each with its own history, task id and abort signal linked to its parent's.
 * Contract: cancelling the main turn cancels every child, and the gate cancels their pending requests.
 */
export class AgentHub {
  private history: ChatMessage[] = [];
  private readonly infos = new Map<string, AgentInfo>();
  private controller: AbortController | undefined;
  private plan: PlanState | undefined;
  private turnCount = 0;

  constructor(private readonly deps: HubDeps) {}

  get busy(): boolean {
    return this.controller !== undefined;
  }

  agents(): AgentInfo[] {
    return [...this.infos.values()];
  }

  currentPlan(): PlanState | undefined {
    return this.plan;
  }

  /** Runs one prompt as a turn of the main agent. Contract: never throws. */
  async runPrompt(text: string): Promise<TurnResult> {
    if (this.controller) return { status: 'failed', text: 'A turn is already running; cancel it first.' };
    const controller = new AbortController();
    this.controller = controller;
    this.turnCount += 1;
    this.deps.checkpoints.beginTurn();
    if (this.history.length === 0) this.history.push({ role: 'system', content: this.prompt() });
    else this.history[0] = { role: 'system', content: this.prompt() };
    const before = this.history.length;
    this.history.push({ role: 'user', content: text });
    try {
      const caller = this.caller(MAIN.id, MAIN.name, `task-${this.turnCount}`, controller.signal);
      const result = await runTurn(this.history, this.deps.specs(false), caller, this.deps);
      // A prompt too big for the context leaves nothing behind: the next, smaller one must not inherit it.
      if (result.stop === 'context_window' && this.history.length === before + 1) this.history.pop();
      return result;
    } finally {
      this.controller = undefined;
    }
  }

  /** Cancels the running turn, its sub-agents and their pending requests. */
  cancel(): boolean {
    if (!this.controller) return false;
    this.controller.abort();
    return true;
  }

  /** Forgets the conversation (not the checkpoints). */
  clear(): void {
    this.history = [];
    this.infos.clear();
    this.plan = undefined;
  }

  /** Runs sub-agents of `parentId` in parallel, each behind the same gate. Contract: never rejects. */
  spawn(
    parentId: string,
    specs: { name: string; task: string }[],
    signal: AbortSignal,
  ): Promise<SubAgentReport[]> {
    return Promise.all(specs.map((spec) => this.runSubAgent(parentId, spec, signal)));
  }

  adoptPlan(plan: { title: string; steps: string[] }): void {
    this.plan = { title: plan.title, steps: plan.steps.map((text) => ({ text, done: false })) };
    this.deps.emit({ type: 'plan_updated', plan: this.plan });
  }

  markStep(step: number, done: boolean): string | undefined {
    const target = this.plan?.steps[step - 1];
    if (!this.plan || !target)
      return this.plan
        ? `The plan has ${this.plan.steps.length} steps; there is no step ${step}.`
        : 'There is no approved plan.';
    target.done = done;
    this.deps.emit({ type: 'plan_updated', plan: this.plan });
    return undefined;
  }

  private async runSubAgent(
    parentId: string,
    spec: { name: string; task: string },
    parentSignal: AbortSignal,
  ): Promise<SubAgentReport> {
    const info: AgentInfo = {
      id: `agent-${randomUUID().slice(0, 8)}`,
      name: spec.name,
      parentId,
      taskId: `task-${randomUUID().slice(0, 8)}`,
      task: spec.task,
      status: 'running',
    };
    this.infos.set(info.id, info);
    this.deps.emit({ type: 'agent_spawned', agent: { ...info } });
    const controller = new AbortController();
    const relay = () => controller.abort();
    parentSignal.addEventListener('abort', relay, { once: true });
    if (parentSignal.aborted) controller.abort();
    const history: ChatMessage[] = [
      { role: 'system', content: this.prompt(spec.name) },
      { role: 'user', content: spec.task },
    ];
    try {
      const result = await runTurn(
        history,
        this.deps.specs(true),
        this.caller(info.id, info.name, info.taskId, controller.signal, parentId),
        this.deps,
      );
      const status: AgentStatus =
        result.status === 'done' ? 'done' : result.status === 'cancelled' ? 'cancelled' : 'failed';
      this.finish(info, status, result.text);
      return { name: spec.name, status, report: result.text || '(no report)' };
    } finally {
      parentSignal.removeEventListener('abort', relay);
    }
  }

  private finish(info: AgentInfo, status: AgentStatus, report: string): void {
    info.status = status;
    info.report = report;
    this.deps.emit({ type: 'agent_finished', agentId: info.id, status, report });
  }

  private caller(
    agentId: string,
    agentName: string,
    taskId: string,
    signal: AbortSignal,
    parentAgentId?: string,
  ): Caller {
    const hub = this;
    return {
      agentId,
      agentName,
      taskId,
      signal,
      ...(parentAgentId ? { parentAgentId } : {}),
      recordPreImage: (path, pre) => this.deps.checkpoints.recordPreImage(path, pre),
      checkpoint: (label) => this.deps.checkpoints.beforeChange(label),
      agents: this.ports(agentId),
      get step() {
        return hub.planStep();
      },
    };
  }

  /** What the agent tools of one caller reach: its own sub-agents, and the session's plan. */
  private ports(agentId: string): AgentPorts {
    return {
      spawn: (specs, signal) => this.spawn(agentId, specs, signal),
      adoptPlan: (plan) => this.adoptPlan(plan),
      markStep: (step, done) => this.markStep(step, done),
    };
  }

  private planStep(): Caller['step'] {
    if (!this.plan) return undefined;
    const index = this.plan.steps.findIndex((s) => !s.done);
    if (index < 0) return undefined;
    return { index: index + 1, total: this.plan.steps.length, title: this.plan.steps[index]?.text ?? '' };
  }

  private prompt(subAgent?: string): string {
    return systemPrompt({
      root: this.deps.root,
      mode: this.deps.mode(),
      ...(this.deps.agentsMd ? { agentsMd: this.deps.agentsMd } : {}),
      ...(subAgent ? { subAgent: { name: subAgent } } : {}),
    });
  }
}
