import type { AgentHub } from '../agent/hub';
import type { Gate } from '../gate/gate';
import type { CoreCommand, CoreEvent, ToolResultEnvelope } from '../protocol';
import { headTail } from '../agent/history-bound';

/** What of a `!command`'s output the agents read (head and tail). */
export const PERSON_OUTPUT_CHARS = 3000;

/** The commands this module carries out. */
export type PersonCommand = Extract<
  CoreCommand,
  { type: 'pause' | 'resume' | 'add_note' | 'run_as_person' | 'edit_plan' }
>;

export type PersonControlDeps = {
  hub: AgentHub;
  gate: Gate;
  emit: (event: CoreEvent) => void;
  /** The tool a `!command` runs through (execute_command); absent → `!command` is refused. */
  personTool?: string;
  /** Keeps a running `!command` in the session's turns, so shutdown waits for it. */
  track: (run: Promise<unknown>) => void;
};

/**
 * The person's side of control: cancelling a task from a card, pausing and
 * resuming agents, a note, the plan's steps, and `!command` run as the person through the gate.
 * Contract: never throws; problems come back as notices.
 */
export class PersonControl {
  private readonly runs = new Set<AbortController>();
  private seq = 0;

  constructor(private readonly d: PersonControlDeps) {}

  /** `cancel_task` on a card ends the requesting agent's whole task (loop, command, sub-agents), not only the card. */
  cancelTaskOf(taskId: string | undefined): void {
    if (taskId) this.d.hub.cancelTask(taskId);
  }

  handle(c: PersonCommand): void {
    const { hub } = this.d;
    switch (c.type) {
      case 'pause': {
        if (!hub.busy) return this.notice('info', 'Nothing is running to pause.');
        hub.pause(c.agentId);
        const who = c.agentId === undefined ? 'every agent' : this.name(c.agentId);
        return this.notice(
          'info',
          `Paused ${who}: no new model requests or tool calls (running ones finish). Run !command, edit the plan (/plan), write a note, then resume (Ctrl+P or /go [note]).`,
        );
      }
      case 'resume': {
        if (c.note?.trim()) hub.tell(`The person's note: ${c.note.trim()}`);
        if (!hub.resume()) return this.notice('info', 'Nothing is paused.');
        return this.notice('info', 'Resumed: the agents go on from where they stopped.');
      }
      case 'add_note':
        if (!c.text.trim()) return;
        hub.tell(`The person's note: ${c.text.trim()}`);
        return this.notice('info', `Note kept; the agent reads it when it goes on: ${c.text.trim()}`);
      case 'edit_plan': {
        const steps = c.steps.map((s) => String(s).trim()).filter(Boolean);
        if (steps.length === 0) return this.notice('warn', 'A plan needs at least one step.');
        const error = hub.editPlan(steps);
        return error ? this.notice('warn', error) : this.notice('info', 'Plan updated; the agents are told.');
      }
      case 'run_as_person':
        if (hub.busy && !hub.paused())
          return this.notice('warn', 'An agent is running: pause it first (Ctrl+P), then run !command.');
        if (!c.command.trim()) return;
        this.d.track(this.runAsPerson(c.command.trim()));
        return;
    }
  }

  /** Ends the person's running commands (shutdown). */
  stop(): void {
    for (const run of this.runs) run.abort('warden is shutting down.');
  }

  /** Runs a command as the person through the gate; its output goes to the paused agents (or the next prompt). */
  private async runAsPerson(command: string): Promise<void> {
    const tool = this.d.personTool;
    if (!tool) return this.notice('error', 'No command tool is available.');
    this.seq += 1;
    const id = `person-${Date.now().toString(36)}-${this.seq}`;
    const args = { command };
    const controller = new AbortController();
    this.runs.add(controller);
    this.d.emit({ type: 'tool_started', agentId: 'person', callId: id, tool, args, summary: command });
    let result: ToolResultEnvelope;
    try {
      result = await this.d.gate.intercept(
        { id, tool, args, why: 'The person ran this command themselves (!command).' },
        { agentId: 'person', agentName: 'you', taskId: id, signal: controller.signal, origin: 'person' },
      );
    } finally {
      this.runs.delete(controller);
    }
    this.d.emit({ type: 'tool_finished', agentId: 'person', callId: id, tool, result });
    this.d.hub.tell(personRanLine(command, result));
  }

  private name(agentId: string): string {
    return this.d.hub.agents().find((a) => a.id === agentId)?.name ?? agentId;
  }

  private notice(level: 'info' | 'warn' | 'error', text: string): void {
    this.d.emit({ type: 'notice', level, text });
  }
}

/** What the agents read of a person's `!command`: "the person ran `x` themselves; output: …" (bounded). */
export function personRanLine(command: string, result: ToolResultEnvelope): string {
  const text =
    result.status === 'executed' ? (result.output ?? '') : `${result.status}: ${result.reason ?? ''}`;
  const how = result.status === 'executed' ? 'output' : 'it did not run or failed';
  return `The person ran \`${command}\` themselves; ${how}:\n${headTail(text, PERSON_OUTPUT_CHARS)}`;
}
