import type { AuditRecord } from '../protocol/audit';
import type { CoreEvent, CoreState, StartInfo, ToolResultEnvelope, TranscriptEntry } from '../protocol';
import { callLine } from '../text/call-line';

const RECENT_AUDIT = 50;
const RESULT_PREVIEW = 160;

/** A session's state before anything happened. */
export function initialCoreState(
  fields: Pick<CoreState, 'sessionId' | 'root' | 'model' | 'mode' | 'sandboxed'>,
): CoreState {
  return {
    ...fields,
    busy: false,
    pending: [],
    grants: [],
    agents: [],
    transcript: [],
    usage: { promptTokens: 0, completionTokens: 0 },
    recentAudit: [],
    mcp: [],
  };
}

type Assistant = TranscriptEntry & { kind: 'assistant' };
type ToolCard = TranscriptEntry & { kind: 'tool' };

/**
 * Folds core events into the state the UI renders: the transcript (user and assistant messages,
 * tool cards, notices), agents and plan. The gate's queue and grants are read live elsewhere.
 * Entries are never mutated once published: a change replaces the entry, so a UI can compare
 * entries by identity.
 */
export class SessionState {
  private seq = 0;
  /** Agent id → id of its streaming assistant entry; call id → tool card entry id. */
  private readonly streaming = new Map<string, string>();
  private readonly toolCards = new Map<string, string>();
  private readonly position = new Map<string, number>();

  constructor(readonly state: CoreState) {}

  addUser(text: string): void {
    this.push({ kind: 'user', id: this.id(), text });
  }

  notice(level: 'info' | 'warn' | 'error', text: string): void {
    this.push({ kind: 'notice', id: this.id(), level, text });
  }

  /** The start banner (model, endpoint host, root, mode, sandbox), first in the transcript. */
  banner(start: StartInfo): void {
    this.push({ kind: 'banner', id: this.id(), start });
  }

  clear(): void {
    this.state.transcript = [];
    this.state.agents = [];
    delete this.state.plan;
    this.streaming.clear();
    this.toolCards.clear();
    this.position.clear();
  }

  private push(entry: TranscriptEntry): void {
    this.position.set(entry.id, this.state.transcript.length);
    this.state.transcript.push(entry);
  }

  private get<K extends TranscriptEntry>(id: string | undefined): K | undefined {
    const at = id === undefined ? undefined : this.position.get(id);
    return at === undefined ? undefined : (this.state.transcript[at] as K);
  }

  /** Replaces an entry with an updated copy. */
  private update<K extends TranscriptEntry>(entry: K, patch: Partial<K>): void {
    const at = this.position.get(entry.id);
    if (at !== undefined) this.state.transcript[at] = { ...entry, ...patch };
  }

  addAudit(record: AuditRecord): void {
    this.state.recentAudit.push(record);
    if (this.state.recentAudit.length > RECENT_AUDIT)
      this.state.recentAudit.splice(0, this.state.recentAudit.length - RECENT_AUDIT);
  }

  apply(event: CoreEvent): void {
    const s = this.state;
    switch (event.type) {
      case 'message_delta': {
        const entry = this.get<Assistant>(this.streaming.get(event.agentId));
        if (entry) this.update(entry, { text: entry.text + event.text });
        else {
          const id = this.id();
          this.streaming.set(event.agentId, id);
          this.push({ kind: 'assistant', id, agentId: event.agentId, text: event.text, streaming: true });
        }
        return;
      }
      case 'message_done': {
        const entry = this.get<Assistant>(this.streaming.get(event.agentId));
        this.streaming.delete(event.agentId);
        if (entry) this.update(entry, { text: event.text, streaming: false });
        else
          this.push({
            kind: 'assistant',
            id: this.id(),
            agentId: event.agentId,
            text: event.text,
            streaming: false,
          });
        return;
      }
      case 'tool_started': {
        const id = `tool-${event.callId}-${this.id()}`;
        this.toolCards.set(event.callId, id);
        this.push({
          kind: 'tool',
          id,
          agentId: event.agentId,
          tool: event.tool,
          summary: cut(event.summary ?? callLine(event.args)),
          status: 'running',
        });
        return;
      }
      case 'tool_finished': {
        const card = this.get<ToolCard>(this.toolCards.get(event.callId));
        this.toolCards.delete(event.callId);
        if (card) this.update(card, { status: event.result.status, result: resultLine(event.result) });
        return;
      }
      case 'approval_requested':
        for (const id of this.toolCards.values()) {
          const card = this.get<ToolCard>(id);
          if (
            card &&
            card.agentId === event.request.agentId &&
            card.tool === event.request.tool &&
            card.status === 'running'
          )
            this.update(card, { status: 'waiting' });
        }
        return;
      case 'approval_resolved':
        for (const id of this.toolCards.values()) {
          const card = this.get<ToolCard>(id);
          if (card?.status === 'waiting') this.update(card, { status: 'running' });
        }
        return;
      case 'plan_updated':
        s.plan = { title: event.plan.title, steps: event.plan.steps.map((x) => ({ ...x })) };
        return;
      case 'notice':
        this.notice(event.level, event.text);
        return;
      case 'error':
        this.notice('error', event.message);
        return;
      case 'turn_review_requested':
        s.review = { turnId: event.turnId, files: event.files };
        return;
      case 'turn_review_resolved':
        if (s.review?.turnId === event.turnId) delete s.review;
        return;
      case 'turn_done': {
        const entry = this.get<Assistant>(this.streaming.get(event.agentId));
        this.streaming.delete(event.agentId);
        if (entry) this.update(entry, { streaming: false });
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

/** A tool card's call line, at most RESULT_PREVIEW characters (the tool's summary, or the generic line). */
function cut(line: string): string {
  return line.slice(0, RESULT_PREVIEW);
}

function resultLine(result: ToolResultEnvelope): string {
  const text = result.status === 'executed' ? (result.output ?? '') : (result.reason ?? result.status);
  const first = text.split('\n').find((l) => l.trim()) ?? '';
  return first.length > RESULT_PREVIEW ? `${first.slice(0, RESULT_PREVIEW - 1)}…` : first;
}
