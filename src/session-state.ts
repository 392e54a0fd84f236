import type { AuditRecord } from './audit/types';
import type { CoreEvent, CoreState, ToolResultEnvelope, TranscriptEntry } from './protocol';

const RECENT_AUDIT = 50;
const RESULT_PREVIEW = 160;

/**
 * Folds core events into the state the UI renders: the transcript (user and assistant messages,
 * tool cards, notices), agents and plan. The gate's queue and grants are read live elsewhere.
 */
export class SessionState {
  private seq = 0;
  private readonly streaming = new Map<string, TranscriptEntry & { kind: 'assistant' }>();
  private readonly toolCards = new Map<string, TranscriptEntry & { kind: 'tool' }>();

  constructor(readonly state: CoreState) {}

  addUser(text: string): void {
    this.state.transcript.push({ kind: 'user', id: this.id(), text });
  }

  notice(level: 'info' | 'warn' | 'error', text: string): void {
    this.state.transcript.push({ kind: 'notice', id: this.id(), level, text });
  }

  clear(): void {
    this.state.transcript = [];
    this.state.agents = [];
    delete this.state.plan;
    this.streaming.clear();
    this.toolCards.clear();
  }

  addAudit(record: AuditRecord): void {
    this.state.recentAudit.push(record);
    if (this.state.recentAudit.length > RECENT_AUDIT) this.state.recentAudit.splice(0, this.state.recentAudit.length - RECENT_AUDIT);
  }

  apply(event: CoreEvent): void {
    const s = this.state;
    switch (event.type) {
      case 'message_delta': {
        let entry = this.streaming.get(event.agentId);
        if (!entry) {
          entry = { kind: 'assistant', id: this.id(), agentId: event.agentId, text: '', streaming: true };
          this.streaming.set(event.agentId, entry);
          s.transcript.push(entry);
        }
        entry.text += event.text;
        return;
      }
      case 'message_done': {
        const entry = this.streaming.get(event.agentId);
        if (entry) {
          entry.text = event.text;
          entry.streaming = false;
          this.streaming.delete(event.agentId);
        } else s.transcript.push({ kind: 'assistant', id: this.id(), agentId: event.agentId, text: event.text, streaming: false });
        return;
      }
      case 'tool_started': {
        const card: TranscriptEntry & { kind: 'tool' } = { kind: 'tool', id: event.callId, agentId: event.agentId, tool: event.tool, summary: summarise(event.args), status: 'running' };
        this.toolCards.set(event.callId, card);
        s.transcript.push(card);
        return;
      }
      case 'tool_finished': {
        const card = this.toolCards.get(event.callId);
        if (!card) return;
        card.status = event.result.status;
        card.result = resultLine(event.result);
        this.toolCards.delete(event.callId);
        return;
      }
      case 'approval_requested':
        for (const card of this.toolCards.values()) if (card.agentId === event.request.agentId && card.tool === event.request.tool && card.status === 'running') card.status = 'waiting';
        return;
      case 'approval_resolved':
        for (const card of this.toolCards.values()) if (card.status === 'waiting') card.status = 'running';
        return;
      case 'agent_spawned':
        s.agents.push({ ...event.agent });
        return;
      case 'agent_finished': {
        const agent = s.agents.find((a) => a.id === event.agentId);
        if (agent) {
          agent.status = event.status;
          if (event.report !== undefined) agent.report = event.report;
        }
        return;
      }
      case 'plan_updated':
        s.plan = { title: event.plan.title, steps: event.plan.steps.map((x) => ({ ...x })) };
        return;
      case 'notice':
        this.notice(event.level, event.text);
        return;
      case 'error':
        this.notice('error', event.message);
        return;
      case 'turn_done': {
        const entry = this.streaming.get(event.agentId);
        if (entry) {
          entry.streaming = false;
          this.streaming.delete(event.agentId);
        }
        return;
      }
      default:
        return;
    }
  }

  private id(): string {
    this.seq += 1;
    return `e${this.seq}`;
  }
}

/** One line describing a call: its path, command, url or first argument. */
export function summarise(args: unknown): string {
  if (!args || typeof args !== 'object') return String(args ?? '').slice(0, RESULT_PREVIEW);
  const a = args as Record<string, unknown>;
  const main = a.command ?? a.path ?? a.url ?? a.pattern ?? a.query ?? a.question ?? a.title ?? a.name;
  if (main !== undefined) return String(main).slice(0, RESULT_PREVIEW);
  if (Array.isArray(a.agents)) return a.agents.map((x) => (x as { name?: string }).name).join(', ');
  return JSON.stringify(a).slice(0, RESULT_PREVIEW);
}

function resultLine(result: ToolResultEnvelope): string {
  const text = result.status === 'executed' ? (result.output ?? '') : (result.reason ?? result.status);
  const first = text.split('\n').find((l) => l.trim()) ?? '';
  return first.length > RESULT_PREVIEW ? `${first.slice(0, RESULT_PREVIEW - 1)}…` : first;
}
