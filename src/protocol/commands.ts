/**
 * Commands of the UI↔core contract: imperative, sent with `CoreClient.send`. Each is documented with
 * the event that answers it. Every event also moves `snapshot()` on, so a UI that only renders the
 * snapshot sees the effect too. A command that cannot be carried out is answered by a `notice`.
 */
import type { Decision } from './approval';
import type { AuditCursor, AuditQuery } from './audit';
import type { SuggestionTarget } from './feedback';
import type { Mode } from './state';

export type CoreCommand =
  /**
   * Project paths starting with `prefix`, for `@path` completion in the prompt (one folder level,
   * through the path fence, without what .gitignore hides). Answered by `path_completions` with the
   * same `requestId`.
   */
  | { type: 'complete_path'; requestId: string; prefix: string }
  /**
   * A prompt for the main agent's next turn (ignored when blank). Answered by `state_changed` (the
   * user's line), then the turn's `message_delta`/`tool_started`/… and `turn_done`; while a turn
   * runs, a `notice` says to wait instead.
   */
  | { type: 'submit'; text: string }
  /**
   * Runs custom slash command `name` (`state.customCommands`): its file's prompt with `args` for
   * `$ARGUMENTS`, as the main agent's next turn; the transcript shows `/name args`. Answered like
   * `submit`; a `notice` when there is no such command, or it is the project's and its files are not trusted.
   */
  | { type: 'run_command'; name: string; args: string }
  /**
   * A person's decision on pending request `id`. Answered by `approval_resolved` (with `state_changed`);
   * a refused edit keeps the request pending with `editError` and a bumped `revision`; an unknown or
   * finished id gets a `notice`.
   */
  | {
      type: 'decide';
      id: string;
      decision: Decision;
      /**
       * "Don't ask again": with an `approve_all` decision, also append the rule its scope amounts to
       * (the one the card offered) to the project's or the person's policy file. Answered as well by a
       * `notice` naming the file, or the error.
       */
      save?: 'project' | 'user';
    }
  /**
   * The UI could not read a key press as a decision for request `id`. Answered by
   * `approval_input_invalid` (count and limit); at the limit the request ends with
   * `approval_resolved` (`invalid_input`).
   */
  | { type: 'report_invalid_input'; id: string }
  /** Cancels the running turn. Answered by its `turn_done`; a `notice` when nothing runs. */
  | { type: 'cancel' }
  /** Switches the permission mode. Answered by a `notice` ("Mode: …"); an unknown mode gets a warning `notice`. */
  | { type: 'set_mode'; mode: Mode }
  /** Ends a session grant. Answered by a `notice` (revoked, or no such grant). */
  | { type: 'revoke_grant'; grantId: string }
  /** Writes a grant's rule to the project's or the user's policy.json. Answered by a `notice` naming the file, or the error. */
  | { type: 'save_grant'; grantId: string; target: 'project' | 'user' }
  /**
   * Reverts the last `turns` turns through the gate (as `revert_turn`): answered by
   * `approval_requested` for the person to confirm, then a `notice` with the outcome.
   */
  | { type: 'undo'; turns: number }
  /**
   * The person's answer to the turn review card of `turnId`: `keep` closes it; `revert` reverts the
   * turn's files (`paths`: only these) through the gate as `revert_turn` — a card to confirm unless a
   * rule allows it, and audited. Answered by `turn_review_resolved` (kept, reverted with the files, or
   * refused with the reason); an unknown turn gets a `notice`.
   */
  | { type: 'review_turn'; turnId: string; action: 'keep' | 'revert'; paths?: string[] }
  /** Cancels any turn and empties the transcript. Answered by `state_changed`. */
  | { type: 'clear' }
  /**
   * Reads one page of the audit log, newest first (`query.limit` records, 200 by default), below
   * `before` when given. Answered by `audit_result` with the same `queryId`; with `stats`, also by
   * `audit_stats` for the whole of `query.from` once counted. A newer query supersedes an unanswered
   * one, which is then never answered.
   */
  | { type: 'query_audit'; queryId: string; query: AuditQuery; before?: AuditCursor; stats?: boolean }
  /** Restarts an MCP server and drops its grants. Answered by a `notice` (restarted, or the error), and `state_changed` as it comes up. */
  | { type: 'restart_mcp'; server: string }
  /**
   * The trust card's answer for the files whose `hash` it showed: `true` trusts them (recorded in
   * `$WARDEN_HOME/trust.json`), `false` keeps their loosening held back. Answered by
   * `trust_changed` (and a notice); if the files changed since the card was shown, nothing is
   * trusted and a new card comes with the new `trust_changed`.
   */
  | { type: 'trust_project'; trust: boolean; hash: string }
  /**
   * The UI's input ended (EOF): nobody can decide any more. Every pending request ends with
   * `approval_resolved` (`input_closed`), and the running turn is cancelled (its `turn_done`).
   */
  | { type: 'input_closed' }
  /**
   * Accepts an offered suggestion (`suggestion_offered`): a rule is appended to the `target` policy
   * file (default project), a preference line to the project's AGENTS.md, exactly as shown. Answered
   * by `suggestion_resolved` and a `notice` naming the file (or the error). An unknown id gets a `notice`.
   */
  | { type: 'accept_suggestion'; id: string; target?: SuggestionTarget }
  /** Declines an offered suggestion: it is never offered again this session. Answered by `suggestion_resolved`. */
  | { type: 'decline_suggestion'; id: string }
  /** The UI is leaving: the running turn is cancelled (its `turn_done`); the UI does not wait for more. */
  | { type: 'quit' }
  /** Lists this project's saved sessions, newest first. Answered by `sessions_listed`. */
  | { type: 'list_sessions' }
  /**
   * Resumes saved session `id` in place of this one (the app starts it again; grants are not carried
   * over). Answered by a `notice` when it cannot be (a turn is running, unknown id, already this session).
   */
  | { type: 'resume_session'; id: string }
  /**
   * Pauses agent `agentId` ('main' for the main agent), or every agent when absent: no new model
   * requests and no new tool calls (calls in flight finish; new ones wait). Answered by a `notice`
   * and `state_changed` (`paused` in the snapshot).
   */
  | { type: 'pause'; agentId?: string }
  /**
   * Resumes every paused agent; `note` is added to their conversation first, with what the person
   * did while they were paused. Answered by a `notice` and `state_changed`.
   */
  | { type: 'resume'; note?: string }
  /** A note for the paused agents (or the next prompt), read at their next model request. Answered by a `notice`. */
  | { type: 'add_note'; text: string }
  /**
   * Runs `command` as the person (`!command`): through the gate like the model's commands (same
   * sandbox, guards and deny rules; a person's own command does not ask), audited with
   * `approver: human, origin: person`. Only while paused or idle. Answered by `tool_started` and
   * `tool_finished` (agentId 'person'); its output is added to the paused agents' conversation.
   */
  | { type: 'run_as_person'; command: string }
  /** Replaces the plan's steps (the person's edit); the agents are told. Answered by `plan_updated`, or a `notice` without a plan. */
  | { type: 'edit_plan'; steps: string[] }
  /**
   * Asks the model (same endpoint and model, no tools) to summarise the main conversation. Answered by
   * `compact_proposed` (the summary, shown before anything changes), or a `notice` (busy, nothing to
   * compact, the model failed).
   */
  | { type: 'compact' }
  /**
   * The person's answer to `compact_proposed` `id`: `accept` replaces the history after the system
   * prompt with the summary. Answered by `compact_resolved` (and a transcript notice "conversation
   * compacted (N → M tokens)"); an unknown id gets a `notice`.
   */
  | { type: 'accept_compact'; id: string; accept: boolean }
  /** Switches the model for the next request. Answered by a `notice` (and `state.model`); the demo model refuses with a `notice`. */
  | { type: 'set_model'; name: string }
  /** Lists the server's models (`GET /models`, bounded). Answered by a `notice` with the list, or why there is none. */
  | { type: 'list_models' }
  /**
   * What the gate would decide for `command` now (`/policy test`): the guard or rule that decides, the
   * verdict, the risk and why, this session's grants included. Nothing runs, nothing is asked or
   * audited. Answered by a `notice` with the report (a warning for a command that cannot be checked).
   */
  | { type: 'test_policy'; command: string }
  /**
   * `/init`: proposes a first AGENTS.md for the project (what warden finds of it) as a write_file call
   * through the gate as the person. Answered by `approval_requested` (its diff card, unless a rule or
   * the mode allows the write), then a `notice` with the outcome; a `notice` only when AGENTS.md
   * exists (it is never replaced). Once written it is in every agent's prompt (`instructions`).
   */
  | { type: 'init_instructions' };
