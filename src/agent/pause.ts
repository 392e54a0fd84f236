import type { PauseState } from '../protocol';

/** What the person did or said while agents were paused, at most this long per entry for the model. */
export const PERSON_NOTE_CHARS = 4000;

/**
 * Pause and the person's inbox. A paused agent sends no new model request and starts no new tool
 * call: `hold` waits (it never fails a call) until the agent is resumed or its task is cancelled.
 * What the person says or does meanwhile waits in each paused agent's inbox and reaches the model
 * at that agent's next request (`drain`), so resume goes on from where it stopped.
 * Contract: `hold` never rejects; it resolves at once for an agent that is not paused.
 */
export class AgentPause {
  private all = false;
  private readonly agents = new Set<string>();
  private readonly waiters = new Set<() => void>();
  private readonly inbox = new Map<string, string[]>();

  /** Pauses one agent, or all when `agentId` is absent. */
  pause(agentId?: string): void {
    if (agentId === undefined) this.all = true;
    else this.agents.add(agentId);
  }

  /** Resumes everything; returns whether anything was paused. */
  resume(): boolean {
    const was = this.any();
    this.all = false;
    this.agents.clear();
    for (const wake of [...this.waiters]) wake();
    return was;
  }

  any(): boolean {
    return this.all || this.agents.size > 0;
  }

  isPaused(agentId: string): boolean {
    return this.all || this.agents.has(agentId);
  }

  /** The snapshot's view; undefined when nothing is paused. */
  state(): PauseState | undefined {
    return this.any() ? { all: this.all, agents: [...this.agents] } : undefined;
  }

  /** Resolves once `agentId` may go on: not paused, or its signal aborted. */
  hold(agentId: string, signal: AbortSignal): Promise<void> {
    if (!this.isPaused(agentId) || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.isPaused(agentId) && !signal.aborted) return;
        this.waiters.delete(check);
        signal.removeEventListener('abort', check);
        resolve();
      };
      this.waiters.add(check);
      signal.addEventListener('abort', check, { once: true });
    });
  }

  /** Adds a line for each of `agentIds` to read at its next model request (bounded). */
  tell(agentIds: readonly string[], text: string): void {
    const line = text.length > PERSON_NOTE_CHARS ? `${text.slice(0, PERSON_NOTE_CHARS - 1)}…` : text;
    for (const id of new Set(agentIds)) {
      const lines = this.inbox.get(id) ?? [];
      lines.push(line);
      this.inbox.set(id, lines);
    }
  }

  /** Takes what waits for `agentId` (empty when nothing does). */
  drain(agentId: string): string[] {
    const lines = this.inbox.get(agentId) ?? [];
    this.inbox.delete(agentId);
    return lines;
  }

  /** Forgets an agent's inbox (it ended). */
  forget(agentId: string): void {
    this.inbox.delete(agentId);
    this.agents.delete(agentId);
  }
}
