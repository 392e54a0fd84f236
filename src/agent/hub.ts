import { planStepOf } from './plan-step';
import { randomUUID } from 'node:crypto';
import type { Caller } from '../gate/gate';
import type { ChatMessage, ToolSpec } from '../llm/types';
import type { AgentInfo, AgentStatus, Mode, PauseState, PlanState } from '../protocol';
import type { AgentPorts, SubAgentReport } from '../tools/types';
import type { CheckpointStore } from './checkpoints';
import { type LoopDeps, type TurnResult, runTurn } from './loop';
import { AgentPause } from './pause';
import { systemPrompt } from './system-prompt';
import type { TurnJournal } from './turn-journal';

export type HubDeps = LoopDeps & {
  /** Tool specs offered to an agent; sub-agents get every tool but spawn_agents. */
  specs: (forSubAgent: boolean) => ToolSpec[];
  checkpoints: CheckpointStore;
  root: string;
  mode: () => Mode;
  /** The instruction files as one block (AGENTS.md: the person's, the project's, its folders'), read when a prompt is built. */
  instructions?: () => string | undefined;
  /** Writes the task's cancellation to the audit log (who cancelled, which task). Contract: never throws. */
  recordCancel?: (task: { agentId: string; agentName: string; taskId: string }, reason: string) => void;
  /** Where the main agent's history is saved as it grows (sessions on disk); sub-agents keep none. */
  journal?: TurnJournal;
  /** What every agent's system prompt carries besides AGENTS.md: the session's rejections and saved preferences. */
  context?: () => string | undefined;
};

/** Why a task was cancelled, as its calls and its parent read it. */
export const CANCELLED_BY_PERSON = 'The person cancelled this task.';

type Task = { controller: AbortController; agentId: string; agentName: string };

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
  /** The prompt that last adopted or ticked the plan: a later prompt's calls are on no step of it until they tick one. */
  private planPrompt = 0;
  private readonly tasks = new Map<string, Task>();
  private readonly pauses = new AgentPause();
  private readonly loopDeps: LoopDeps;
  /** Running sub-agents' histories (and names), so a new rejection reaches their system prompts. */
  private readonly live = new Map<ChatMessage[], string>();

  constructor(private readonly deps: HubDeps) {
    const pauses = this.pauses;
    this.loopDeps = {
      ...deps,
      control: {
        hold: (caller) => pauses.hold(caller.agentId, caller.signal),
        drain: (agentId) => pauses.drain(agentId),
        pause: (agentId) => this.pause(agentId),
      },
    };
  }

  get busy(): boolean {
    return this.controller !== undefined;
  }

  /** How many prompts the person has sent (the number of the latest). */
  get prompts(): number {
    return this.turnCount;
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
    // What the person did between turns (a `!command`, a note) comes with the prompt.
    const told = this.pauses.drain(MAIN.id);
    this.history.push({ role: 'user', content: [...told, text].join('\n\n') });
    const taskId = `task-${this.turnCount}`;
    this.tasks.set(taskId, { controller, agentId: MAIN.id, agentName: MAIN.name });
    try {
      const caller = this.caller(MAIN.id, MAIN.name, taskId, controller.signal);
      this.deps.journal?.prompt(text);
      this.deps.journal?.sync(this.history);
      const result = await runTurn(
        this.history,
        this.deps.specs(false),
        caller,
        this.loopDeps,
        this.deps.journal,
      );
      // A prompt too big for the context leaves nothing behind: the next, smaller one must not inherit it.
      if (result.stop === 'context_window' && this.history.length === before + 1) this.history.pop();
      this.deps.journal?.sync(this.history);
      return result;
    } finally {
      this.controller = undefined;
      this.tasks.delete(taskId);
      // Nothing stays paused past its turn: the next prompt starts afresh.
      if (this.tasks.size === 0 && this.pauses.resume()) this.deps.emit({ type: 'state_changed' });
    }
  }

  /** Cancels the running turn, its sub-agents and their pending requests. */
  cancel(reason = CANCELLED_BY_PERSON): boolean {
    if (!this.controller) return false;
    this.controller.abort(reason);
    return true;
  }

  /** The person cancels the running turn (Esc, /cancel): like `c` on a main-agent card — audited and shown. */
  cancelByPerson(): boolean {
    const main = [...this.tasks.entries()].find(([, t]) => t.controller === this.controller);
    return main ? this.cancelTask(main[0]) : this.cancel();
  }

  /**
   * Cancels one task: its agent's loop stops (no further model request), its pending requests and
   * running command end (the abort reaches the gate and the process group), and its sub-agents are
   * cancelled with it; other tasks go on. The audit records it. Returns false for an unknown task.
   */
  cancelTask(taskId: string, reason = CANCELLED_BY_PERSON): boolean {
    const task = this.tasks.get(taskId);
    if (!task || task.controller.signal.aborted) return false;
    this.deps.recordCancel?.({ agentId: task.agentId, agentName: task.agentName, taskId }, reason);
    task.controller.abort(reason);
    this.deps.emit({ type: 'notice', level: 'warn', text: `Cancelled ${task.agentName}'s task: ${reason}` });
    return true;
  }

  /** The agent a task belongs to, while it runs. */
  taskAgent(taskId: string): string | undefined {
    return this.tasks.get(taskId)?.agentId;
  }

  /** Pauses one agent ('main' or a sub-agent id), or all when absent. */
  pause(agentId?: string): void {
    this.pauses.pause(agentId);
    this.deps.emit({ type: 'state_changed' });
  }

  /** Resumes every paused agent; returns whether anything was paused. */
  resume(): boolean {
    const was = this.pauses.resume();
    this.deps.emit({ type: 'state_changed' });
    return was;
  }

  paused(): PauseState | undefined {
    return this.pauses.state();
  }

  /**
   * Something the person said or did, for the agents that should know: the paused ones (all that
   * run when everything is paused), else the main agent's next request or prompt.
   */
  tell(text: string): void {
    const state = this.pauses.state();
    const running = [...this.tasks.values()].map((t) => t.agentId);
    const targets = state?.all ? running : (state?.agents ?? []);
    this.pauses.tell(targets.length > 0 ? targets : [MAIN.id], text);
  }

  /** Replaces the plan's steps (a person's edit); steps kept by text keep their tick. */
  editPlan(steps: string[]): string | undefined {
    if (!this.plan) return 'There is no plan to edit.';
    const done = new Set(this.plan.steps.filter((s) => s.done).map((s) => s.text));
    this.plan = { title: this.plan.title, steps: steps.map((text) => ({ text, done: done.has(text) })) };
    this.deps.emit({ type: 'plan_updated', plan: this.plan });
    this.tell(
      `The person edited the plan "${this.plan.title}"; follow these steps now:\n${steps.map((t, i) => `${i + 1}. ${t}`).join('\n')}`,
    );
    return undefined;
  }

  /** Takes over a saved conversation (resume): its messages after the system prompt, its plan, its number of turns. */
  restore(messages: ChatMessage[], plan: PlanState | undefined, turns: number): void {
    this.history = messages.length > 0 ? [{ role: 'system', content: this.prompt() }, ...messages] : [];
    this.plan = plan;
    this.turnCount = turns;
  }

  /**
   * Goes on with the turn warden stopped in (resume): `settle` ends the step's unfinished calls
   * (through the gate, as the main agent) and returns their history messages; then the loop runs on.
   * Contract: never throws (nor may `settle`).
   */
  async continueTurn(settle: (caller: Caller) => Promise<ChatMessage[]>): Promise<TurnResult> {
    if (this.controller) return { status: 'failed', text: 'A turn is already running; cancel it first.' };
    const controller = new AbortController();
    this.controller = controller;
    this.turnCount += 1;
    this.deps.checkpoints.beginTurn();
    this.history[0] = { role: 'system', content: this.prompt() };
    const taskId = `task-${this.turnCount}`;
    this.tasks.set(taskId, { controller, agentId: MAIN.id, agentName: MAIN.name });
    try {
      const caller = this.caller(MAIN.id, MAIN.name, taskId, controller.signal);
      this.history.push(...(await settle(caller)));
      this.deps.journal?.sync(this.history);
      const specs = this.deps.specs(false);
      return await runTurn(this.history, specs, caller, this.loopDeps, this.deps.journal);
    } finally {
      this.controller = undefined;
      this.tasks.delete(taskId);
    }
  }

  /** The main agent's conversation as it stands (the live array a running turn sends). */
  conversation(): readonly ChatMessage[] {
    return this.history;
  }

  /**
   * Replaces the main conversation in place (an accepted /compact): a running turn goes on with the
   * new messages, and the journal records the old ones dropped and the new ones added.
   */
  replaceHistory(messages: ChatMessage[]): void {
    this.deps.journal?.sync(this.history.slice(0, 1));
    this.history.splice(0, this.history.length, ...messages);
    this.deps.journal?.sync(this.history);
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
    this.planPrompt = this.turnCount;
    this.deps.emit({ type: 'plan_updated', plan: this.plan });
  }

  markStep(step: number, done: boolean): string | undefined {
    const target = this.plan?.steps[step - 1];
    if (!this.plan || !target)
      return this.plan
        ? `The plan has ${this.plan.steps.length} steps; there is no step ${step}.`
        : 'There is no approved plan.';
    target.done = done;
    this.planPrompt = this.turnCount;
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
      prompt: this.turnCount,
    };
    this.infos.set(info.id, info);
    this.deps.emit({ type: 'agent_spawned', agent: { ...info } });
    const controller = new AbortController();
    const relay = () => controller.abort(parentSignal.reason);
    this.tasks.set(info.taskId, { controller, agentId: info.id, agentName: info.name });
    parentSignal.addEventListener('abort', relay, { once: true });
    if (parentSignal.aborted) controller.abort();
    const history: ChatMessage[] = [
      { role: 'system', content: this.prompt(spec.name) },
      { role: 'user', content: spec.task },
    ];
    this.live.set(history, spec.name);
    try {
      const result = await runTurn(
        history,
        this.deps.specs(true),
        this.caller(info.id, info.name, info.taskId, controller.signal, parentId),
        this.loopDeps,
      );
      // A cancelled card alone no longer lets a sub-agent finish as "done": its task's abort decides.
      const status: AgentStatus = controller.signal.aborted
        ? 'cancelled'
        : result.status === 'done'
          ? 'done'
          : result.status === 'cancelled'
            ? 'cancelled'
            : 'failed';
      const report =
        status === 'cancelled'
          ? `Cancelled by the person (task_cancelled): ${typeof controller.signal.reason === 'string' ? controller.signal.reason : CANCELLED_BY_PERSON} The sub-task did not finish; do not redo it unless the person asks.`
          : result.text || '(no report)';
      this.finish(info, status, report);
      return { name: spec.name, status, report };
    } finally {
      parentSignal.removeEventListener('abort', relay);
      this.live.delete(history);
      this.tasks.delete(info.taskId);
      this.pauses.forget(info.id);
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
      checkpoint: (label, ahead) => this.deps.checkpoints.beforeChange(label, ahead),
      agents: this.ports(agentId),
      get step() {
        return hub.planStep(agentName, parentAgentId !== undefined);
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

  private planStep(agentName: string, isSubAgent: boolean): Caller['step'] {
    if (!this.plan || this.planPrompt !== this.turnCount) return undefined;
    return planStepOf(this.plan, agentName, isSubAgent);
  }

  /**
   * Rewrites the system prompt of the main agent and of every running sub-agent (their next model
   * request reads it): a rejection one agent got reaches the agents working beside it.
   */
  refreshPrompts(): void {
    if (this.history.length > 0) this.history[0] = { role: 'system', content: this.prompt() };
    for (const [history, name] of this.live) history[0] = { role: 'system', content: this.prompt(name) };
  }

  private prompt(subAgent?: string): string {
    const context = this.deps.context?.();
    const instructions = this.deps.instructions?.();
    return systemPrompt({
      root: this.deps.root,
      mode: this.deps.mode(),
      ...(instructions ? { instructions } : {}),
      ...(subAgent ? { subAgent: { name: subAgent } } : {}),
      ...(context ? { context } : {}),
    });
  }
}
