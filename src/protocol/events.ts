/** Events of the UI↔core contract: facts the core reports, in the past tense. */
import type { ApprovalRequest, Approver, Outcome, ToolResultEnvelope } from './approval';
import type { AuditCursor, AuditRecord, AuditStats } from './audit';
import type { Suggestion } from './feedback';
import type { SessionSummary } from './sessions';
import type { TurnChange } from './review';
import type { AgentInfo, AgentStatus, PlanState, ProjectTrustState, ToolBatch, ToolStep } from './state';

/**
 * Why a turn ended before the model finished: `idle_timeout` (nothing arrived for
 * streamIdleTimeoutSec), `turn_timeout` (one answer took longer than turnTimeoutSec), `truncated`
 * (the stream ended with no finish_reason and no [DONE]; its tool calls did not run),
 * `context_window`, `max_steps`, `model_error` (any other failure of the model server), or `escalated`
 * (the agent asked the person for help and got no answer it can go on with).
 */
export type TurnStop =
  | 'idle_timeout'
  | 'turn_timeout'
  | 'truncated'
  | 'context_window'
  | 'max_steps'
  | 'model_error'
  /** The agent escalated to the person and no answer came that lets it go on. */
  | 'escalated';

/** Everything the core tells the UI; each `CoreCommand` names the event that answers it. */
export type CoreEvent =
  | { type: 'state_changed' }
  | { type: 'message_delta'; agentId: string; text: string }
  | { type: 'message_done'; agentId: string; text: string }
  /** `summary`: the tool's own one line for the call (its path, command, question …). */
  /** `step`: the plan step the calling agent is on, when it works on this prompt's plan. */
  /** `batch`: the calls of the same answer it runs side by side with (absent when it runs alone). */
  | {
      type: 'tool_started';
      agentId: string;
      callId: string;
      tool: string;
      args: unknown;
      summary?: string;
      step?: ToolStep;
      batch?: ToolBatch;
    }
  /**
   * A running call printed `chunk`: the newest output since the last such event, at most one per call
   * every ~50 ms, sanitised (an escape sequence split between reads is held until it is whole; a lone
   * CR stays, to overwrite a line). `skippedLines`: lines of a burst left out before `chunk` (only the
   * newest part is kept). The call's result still comes whole, from the tool, in `tool_finished`.
   */
  | { type: 'tool_output'; agentId: string; callId: string; chunk: string; skippedLines?: number }
  | { type: 'tool_finished'; agentId: string; callId: string; tool: string; result: ToolResultEnvelope }
  | { type: 'approval_requested'; request: ApprovalRequest }
  | {
      type: 'approval_resolved';
      requestId: string;
      outcome: Outcome;
      approver: Approver;
      reason?: string;
    }
  | { type: 'approval_input_invalid'; requestId: string; count: number; limit: number }
  | { type: 'agent_spawned'; agent: AgentInfo }
  | { type: 'agent_finished'; agentId: string; status: AgentStatus; report?: string }
  | { type: 'plan_updated'; plan: PlanState }
  /** A turn ended; `stop` says why when it ended early (which timer fired, a cut stream, …). */
  | { type: 'turn_done'; agentId: string; text: string; stop?: TurnStop }
  | { type: 'audit_recorded'; record: AuditRecord }
  /** A page of audit records, newest first; `before` is where the next (older) page starts, absent at the end. */
  | { type: 'audit_result'; queryId: string; records: AuditRecord[]; before?: AuditCursor }
  /** The stats of the queried day, sent after its `audit_result` once the whole day is counted. */
  | { type: 'audit_stats'; queryId: string; stats: AuditStats }
  /**
   * `code`: what a headless run acts on (`checkpoint_incomplete`: a turn's end checkpoint failed, so
   * undo cannot cover all of it; headless says so and exits 6; `settings_restored` / `settings_reloaded`:
   * warden's settings file was put back after a tool changed it, or a person's edit was kept and read
   * again; `session_unsaved`: sessions/ cannot be written; headless says each on stderr;
   * `answered_elsewhere`: an answer from another terminal was applied or refused; `hook_failed`: a hook
   * failed, closed; `hook_said`: a hook had something for the person — a message, a PostToolUse
   * objection, a Stop hook asking to go on — which changes nothing by itself; headless says both on stderr).
   */
  | {
      type: 'notice';
      level: 'info' | 'warn' | 'error';
      text: string;
      code?:
        | 'checkpoint_incomplete'
        | 'settings_restored'
        | 'settings_reloaded'
        | 'session_unsaved'
        | 'answered_elsewhere'
        | 'hook_failed'
        | 'hook_said';
    }
  /** Tell the person (they may not be looking): the UI writes `terminal`'s notification sequence. */
  | { type: 'notify'; notification: Notification; terminal: NotifyTerminal }
  /** The project's trust changed (the person answered the card, or its files changed). */
  | { type: 'trust_changed'; trust: ProjectTrustState }
  /** warden offers, once per shape and session, to remember a repeated approval or edit. */
  | { type: 'suggestion_offered'; suggestion: Suggestion }
  /** An offer was accepted (written to `file`), declined, or failed to be written. */
  | { type: 'suggestion_resolved'; id: string; outcome: 'accepted' | 'declined' | 'failed'; file?: string }
  /** This project's saved sessions, newest first (answers `list_sessions`). */
  | { type: 'sessions_listed'; sessions: SessionSummary[] }
  /**
   * A turn ended having changed these files (by any tool, commands included): the changeset. Sent at
   * every such turn end, review on or off (headless `--json` prints it as a line); no file contents.
   */
  | {
      type: 'turn_changes';
      turnId: string;
      files: Pick<TurnChange, 'path' | 'kind' | 'tooLarge' | 'notRestorable' | 'by'>[];
    }
  /** The turn review card (the output gate): `files` with their text on each side; answered by `review_turn`. */
  | { type: 'turn_review_requested'; turnId: string; files: TurnChange[] }
  /** A review ended: kept, or `reverted` files put back (through the gate, audited as revert_turn). */
  | {
      type: 'turn_review_resolved';
      turnId: string;
      action: 'keep' | 'revert';
      outcome: 'kept' | 'reverted' | 'refused';
      reverted?: string[];
      reason?: string;
    }
  /** Answers `complete_path`: relative paths, folders ending in `/`; [] when nothing matches or the prefix leaves the project. */
  | { type: 'path_completions'; requestId: string; prefix: string; matches: string[] }
  /** A /compact summary (asked for, or offered before the window overflows) waits for `accept_compact`. */
  | { type: 'compact_proposed'; id: string; summary: string; before: number; after: number; offered: boolean }
  /** The person accepted (the history was replaced: `before` → `after` tokens) or declined a summary. */
  | { type: 'compact_resolved'; id: string; outcome: 'accepted' | 'declined'; before: number; after: number }
  | { type: 'error'; message: string };

/** What a notification is about. */
export type NotifyKind = 'approval' | 'plan' | 'question' | 'escalation' | 'expiring' | 'turn_done';
/** How the terminal is told: OSC 9, OSC 777 `notify`, the bell. */
export type NotifyTerminal = 'osc9' | 'osc777' | 'bell';

/** One notification, as the terminal shows it and `notify.command` receives it (JSON on stdin). */
export type Notification = {
  kind: NotifyKind;
  /** One line, redacted. */
  text: string;
  project: string;
  requestId?: string;
  tool?: string;
  /** The call in one line, redacted. */
  call?: string;
  risk?: string;
  expiresAt?: string;
};
