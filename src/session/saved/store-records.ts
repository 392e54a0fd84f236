/**
 * The lines of a session file, `$WARDEN_HOME/sessions/<id>.jsonl`: one JSON object each, appended
 * in order, redacted like the audit. The main agent's history is the `history` lines put together;
 * the transcript is the `event` lines replayed; an `asked` line without a later `history` line is a
 * step that warden stopped in the middle of (its calls are settled on resume).
 */
import type { ChatMessage, ToolCallRequest } from '../../llm/types';
import type { CoreEvent, Mode } from '../../protocol/index';

/** The first line: what the session is. */
export type SessionMeta = {
  t: 'meta';
  v: 1;
  sessionId: string;
  root: string;
  model: string;
  createdAt: string;
};

/**
 * A tool message whose content is the JSON of the result in the last `tool_finished` event with its
 * call id before this line: a result is written once, not again in the history (a burst of reads
 * would double the file, and its redaction).
 */
export type ToolResultRef = { role: 'tool'; tool_call_id: string; fromEvent: true };

/** A history message as a session file holds it. */
export type SavedMessage = ChatMessage | ToolResultRef;

/** One line of a session file after the first. `ts`: when it was written. */
export type SessionRecord =
  | SessionMeta
  /** The person's prompt: a turn starts (the transcript's line and the index's count). */
  | { t: 'prompt'; ts: string; text: string }
  /** Messages appended to the main agent's history (never the system prompt: it is rebuilt). */
  | { t: 'history'; ts: string; messages: SavedMessage[] }
  /** The last `count` history messages were taken back (a prompt too big for the context). */
  | { t: 'dropped'; ts: string; count: number }
  /** The main agent's step asked for these calls; their results arrive as `tool_finished` events. */
  | { t: 'asked'; ts: string; content: string | null; calls: ToolCallRequest[] }
  /** A core event the transcript (or the pending queue) is rebuilt from. */
  | { t: 'event'; ts: string; event: CoreEvent }
  | { t: 'mode'; ts: string; mode: Mode }
  /** `/clear`: the conversation before this line is forgotten. */
  | { t: 'clear'; ts: string };

/** The events a resumed transcript and queue need; streaming deltas and audit echoes are left out. */
const KEPT: ReadonlySet<CoreEvent['type']> = new Set<CoreEvent['type']>([
  'message_done',
  'tool_started',
  'tool_finished',
  'approval_requested',
  'approval_resolved',
  'plan_updated',
  'notice',
  'error',
  'turn_done',
]);

/** Whether an event goes into the session file. */
export function keepsEvent(event: CoreEvent): boolean {
  return KEPT.has(event.type);
}

/**
 * Events after which the file is written at once (and synced soon): what a crash must not lose —
 * a request waiting for a person, its end, a call's result, a turn's end.
 */
export function isBoundary(record: SessionRecord): boolean {
  if (record.t !== 'event') return true;
  const type = record.event.type;
  return (
    type === 'approval_requested' ||
    type === 'approval_resolved' ||
    type === 'tool_finished' ||
    type === 'turn_done'
  );
}

/** A shape check of a parsed line: enough that a resume never trips over a stranger's JSON. */
export function isSessionRecord(value: unknown): value is SessionRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  switch (r.t) {
    case 'meta':
      return typeof r.sessionId === 'string' && typeof r.root === 'string';
    case 'history':
      return Array.isArray(r.messages) && r.messages.every(isMessage);
    case 'prompt':
      return typeof r.text === 'string';
    case 'dropped':
      return typeof r.count === 'number';
    case 'asked':
      return Array.isArray(r.calls) && r.calls.every(isCall);
    case 'event':
      return (
        typeof r.event === 'object' &&
        r.event !== null &&
        typeof (r.event as { type?: unknown }).type === 'string'
      );
    case 'mode':
      return typeof r.mode === 'string';
    case 'clear':
      return true;
    default:
      return false;
  }
}

function isMessage(m: unknown): m is SavedMessage {
  if (typeof m !== 'object' || m === null) return false;
  const x = m as Record<string, unknown>;
  if (x.role === 'user' || x.role === 'system') return typeof x.content === 'string';
  if (x.role === 'tool')
    return (typeof x.content === 'string' || x.fromEvent === true) && typeof x.tool_call_id === 'string';
  if (x.role === 'assistant')
    return (
      (x.content === null || typeof x.content === 'string') &&
      (x.tool_calls === undefined || (Array.isArray(x.tool_calls) && x.tool_calls.every(isCall)))
    );
  return false;
}

function isCall(c: unknown): c is ToolCallRequest {
  if (typeof c !== 'object' || c === null) return false;
  const x = c as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
  return (
    typeof x.id === 'string' &&
    typeof x.function?.name === 'string' &&
    typeof x.function?.arguments === 'string'
  );
}
