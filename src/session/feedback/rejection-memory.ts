/**
 * The person's rejections, kept for the session and given to every agent: a sub-agent
 * spawned after a rejection — or running beside the agent that was rejected — reads "the person
 * rejected: … (reason)" in its system prompt, so it does not try the same idea under a new shape.
 * Bounded (the last 8), each line sanitised and cut: the call's summary is the model's text.
 */
import { sanitizeText } from '../../text/sanitize';

export type Rejection = { agentName: string; taskId: string; call: string; reason?: string };

const KEEP = 8;
const CALL_CHARS = 160;
const REASON_CHARS = 240;

/** One line of text, visible controls, at most `max` characters. */
function line(text: string, max: number): string {
  const flat = sanitizeText(text, 'exact').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The session's last rejections, oldest first. */
export class RejectionMemory {
  private readonly kept: Rejection[] = [];

  constructor(private readonly keep = KEEP) {}

  add(rejection: Rejection): void {
    this.kept.push({
      agentName: line(rejection.agentName, 40),
      taskId: rejection.taskId,
      call: line(rejection.call, CALL_CHARS),
      ...(rejection.reason?.trim() ? { reason: line(rejection.reason, REASON_CHARS) } : {}),
    });
    if (this.kept.length > this.keep) this.kept.splice(0, this.kept.length - this.keep);
  }

  list(): Rejection[] {
    return [...this.kept];
  }

  /** The block added to every agent's system prompt; undefined while nothing was rejected. */
  context(): string | undefined {
    if (this.kept.length === 0) return undefined;
    const lines = this.kept.map(
      (r) =>
        `- the person rejected ${JSON.stringify(r.call)} (asked by ${r.agentName}): ${r.reason ? JSON.stringify(r.reason) : 'no reason given'}`,
    );
    return [
      'Rejected in this session — do not propose these again, nor the same idea in another form (another command, path or tool); choose a different approach or ask the person:',
      ...lines,
    ].join('\n');
  }
}
