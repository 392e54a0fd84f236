/**
 * What pause means on screen: a paused agent reads "paused", not "running", and a turn
 * whose every active agent is paused is on hold, not "working".
 */
import type { AgentInfo, PauseState } from '../../src/protocol';

/** An agent as the group shows it: its core status, and whether it is paused. */
export type ShownAgent = AgentInfo & { paused?: boolean };

const active = (a: AgentInfo) => a.status === 'running' || a.status === 'waiting';

/** The agents with `paused` set on each active one the pause holds. */
export function markPaused(agents: readonly AgentInfo[], paused: PauseState | undefined): ShownAgent[] {
  if (!paused) return [...agents];
  return agents.map((a) =>
    active(a) && (paused.all || paused.agents.includes(a.id)) ? { ...a, paused: true } : a,
  );
}

/**
 * Whether a running turn is on hold: everything paused, or every active sub-agent paused (the main
 * agent waits for them), or the main agent paused with no sub-agent at work.
 */
export function turnOnHold(agents: readonly AgentInfo[], paused: PauseState | undefined): boolean {
  if (!paused) return false;
  if (paused.all) return true;
  const subs = agents.filter((a) => a.parentId !== undefined && active(a));
  return subs.length > 0 ? subs.every((a) => paused.agents.includes(a.id)) : paused.agents.includes('main');
}
