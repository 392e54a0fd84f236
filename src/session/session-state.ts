import type { AuditRecord } from '../protocol/audit';
import type { CoreEvent, CoreState, StartInfo, ToolResultEnvelope, TranscriptEntry } from '../protocol';
import type { ApprovalPreview } from '../protocol/approval';
import { callLine } from '../text/call-line';
import { compactDiff } from './compact-diff';
import { emptyTail, foldTail, publishTail, type TailState } from './output-tail';

const RECENT_AUDIT = 50;
const RESULT_PREVIEW = 160;
/** A card keeps at most this much of a result (the largest tool cap, read_file's); the middle of more is cut. */
const OUTPUT_KEEP = 200_000;

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
    usage: { promptTokens: 0, completionTokens: 0, responses: 0 },
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
  /** Card id → its live output, folded; request id → the card it asks about. */
  private readonly tails = new Map<string, TailState>();
  private readonly asking = new Map<string, string>();
  /** Call id → the diff preview a person approved, until the call finishes (then its card keeps it folded). */
  private readonly approvedDiffs = new Map<string, ApprovedDiff>();

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
    this.tails.clear();
    this.asking.clear();
  }

  private push(entry: TranscriptEntry): void {
    this.position.set(entry.id, this.state.transcript.length);
    this.state.transcript.push(entry);
  }

  private get<K extends TranscriptEntry>(id: string | undefined): K | undefined {
    const at = id === undefined ? undefined : this.position.get(id);
    return at === undefined ? undefined : (this.state.transcript[at] as K);
  }

  /** Puts `entry` in place of the entry with its id. */
  private replace(entry: TranscriptEntry): void {
    const at = this.position.get(entry.id);
    if (at !== undefined) this.state.transcript[at] = entry;
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
        // Built field by field, not spread: a burst adds thousands of these (object spreads were a
        // tenth of a burst's state upkeep, profiled).
        const card: ToolCard = {
          kind: 'tool',
          id,
          agentId: event.agentId,
          tool: event.tool,
          summary: cut(event.summary ?? callLine(event.args)),
          status: 'running',
          startedAt: Date.now(),
        };
        if (event.step) card.step = { ...event.step };
        if (event.batch) card.batch = event.batch;
        this.push(card);
        return;
      }
      case 'tool_output': {
        const card = this.get<ToolCard>(this.toolCards.get(event.callId));
        if (!card) return;
        const tail = foldTail(this.tails.get(card.id) ?? emptyTail(), event.chunk, event.skippedLines);
        this.tails.set(card.id, tail);
        this.update(card, { tail: publishTail(tail) });
        return;
      }
      case 'tool_finished': {
        const card = this.get<ToolCard>(this.toolCards.get(event.callId));
        this.toolCards.delete(event.callId);
        if (!card) return;
        this.tails.delete(card.id);
        const done: ToolCard = {
          ...card,
          status: event.result.status,
          result: resultLine(event.result),
          output: keep(resultText(event.result) + editedNote(event.result)),
        };
        // The live tail ends with the call (most cards never had one: no rest-copy of every card).
        if (done.tail !== undefined) delete done.tail;
        // The person changed the call before it ran: the card says so, and its output ends with what changed.
        if (event.result.edited) done.summary = cut(`${card.summary} · edited by you`);
        this.replace(done);
        this.keepApprovedDiff(card.id, event.callId, event.result.status);
        return;
      }
      case 'approval_requested': {
        // The request names its call: only that card waits (a queue of requests waits card by card).
        const byCall = event.request.callId ? this.toolCards.get(event.request.callId) : undefined;
        const card = this.get<ToolCard>(byCall);
        if (card) {
          this.asking.set(event.request.id, card.id);
          if (card.status === 'running') this.update(card, { status: 'waiting' });
          return;
        }
        if (event.request.callId) return;
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
      }
      case 'approval_resolved': {
        // Only the card this request was about; the others are still waiting their turn.
        const card = this.get<ToolCard>(this.asking.get(event.requestId));
        this.asking.delete(event.requestId);
        if (card?.status === 'waiting' && event.outcome === 'executed')
          this.update(card, { status: 'running', startedAt: Date.now() });
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

  /** A request the person decided (with its final preview, an edit included): a write's diff is kept for its card. */
  rememberApproved(request: { callId?: string; preview: ApprovalPreview }): void {
    const p = request.preview;
    if (!request.callId || p.kind !== 'diff' || p.binary) return;
    this.approvedDiffs.set(request.callId, {
      path: p.path,
      before: p.before,
      after: p.after,
      isNew: p.isNew,
    });
    // Calls that never finish (a crashed turn) must not pile up.
    if (this.approvedDiffs.size > 64)
      this.approvedDiffs.delete(this.approvedDiffs.keys().next().value as string);
  }

  private keepApprovedDiff(cardId: string, callId: string, status: string): void {
    const d = this.approvedDiffs.get(callId);
    this.approvedDiffs.delete(callId);
    const card = this.get<ToolCard>(cardId);
    if (!d || !card || status !== 'executed') return;
    this.update(card, { diff: compactDiff(d.path, d.before, d.after, d.isNew) });
  }
}

type ApprovedDiff = { path: string; before: string; after: string; isNew: boolean };

/** A tool card's call line, at most RESULT_PREVIEW characters (the tool's summary, or the generic line). */
function cut(line: string): string {
  return line.slice(0, RESULT_PREVIEW);
}

/** What the person's edit changed, as lines after a result's text ('' when the call was not edited). */
function editedNote(result: ToolResultEnvelope): string {
  const changes = result.edited?.changes ?? [];
  return changes.length ? `\n✎ edited by you: ${changes.join('\n')}` : '';
}

/** The text a result shows: the output it ran with, else why it did not run. */
function resultText(result: ToolResultEnvelope): string {
  return result.status === 'executed' ? (result.output ?? '') : (result.reason ?? result.status);
}

/** `text`, or its head and tail around a marker when it is longer than OUTPUT_KEEP. */
function keep(text: string): string {
  if (text.length <= OUTPUT_KEEP) return text;
  const half = OUTPUT_KEEP / 2;
  return `${text.slice(0, half)}\n… [${text.length - OUTPUT_KEEP} characters cut] …\n${text.slice(-half)}`;
}

function resultLine(result: ToolResultEnvelope): string {
  const text = resultText(result);
  const first = text.split('\n').find((l) => l.trim()) ?? '';
  return first.length > RESULT_PREVIEW ? `${first.slice(0, RESULT_PREVIEW - 1)}…` : first;
}
