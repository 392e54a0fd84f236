/**
 * The only contract between the UI and the core. The UI renders `CoreClient.snapshot()` plus the
 * events it receives, and changes anything only by sending a `CoreCommand`.
 */
import type { AuditQuery, AuditRecord, AuditStats } from './audit/types';

export type RiskLevel = 'low' | 'medium' | 'high';
export type Risk = { level: RiskLevel; reasons: string[] };
export type RuleSource = 'builtin' | 'user' | 'project' | 'mode' | 'guard' | 'grant';
export type RuleRef = { id: string; source: RuleSource };
export type Mode = 'manual' | 'auto-edit' | 'plan' | 'auto';
export const MODES: readonly Mode[] = ['manual', 'auto-edit', 'plan', 'auto'];

/** What approve-all may grant; computed by the gate from the call, never by the model. */
export type GrantMatch =
  | { kind: 'tool' }
  | { kind: 'path_glob'; glob: string }
  | { kind: 'command_prefix'; tokens: string[] }
  | { kind: 'mcp_server'; server: string }
  /** web_fetch to exactly this host (no subdomains). */
  | { kind: 'domain'; domain: string };

export type GrantScope = {
  /** Tool name the grant covers (for an MCP server grant: `mcp__<server>__*`). */
  tool: string;
  match: GrantMatch;
  /** `agent` limits the grant to the requesting agent; `all` covers every agent. */
  agents: { kind: 'agent'; agentId: string; agentName: string } | { kind: 'all' };
  minutes?: number;
  /** One line a person reads before granting, e.g. "execute_command `npm test *`, all agents". */
  label: string;
  /** The exact policy rule (JSON) this grant amounts to. */
  ruleText: string;
};

export type Grant = GrantScope & { id: string; createdAt: string; expiresAt?: string; uses: number };

export type ApprovalPreview =
  /** `binary`: the file being replaced holds a NUL byte; `before` then describes it instead of showing it. */
  | { kind: 'diff'; path: string; before: string; after: string; isNew: boolean; binary?: true }
  | {
      kind: 'command';
      command: string;
      cwd: string;
      timeoutMs: number;
      sandboxed: boolean;
      parts: string[];
      notes: string[];
      /**
       * Every path the command writes, as the guard reads it (relative to the project when inside it).
       * `protected`: the protected-path pattern it hits; `scratch`: the sandbox's private /tmp or /dev;
       * `dynamic`: only known at run time.
       */
      writes?: { path: string; protected?: string; scratch?: true; dynamic?: true }[];
    }
  | { kind: 'plan'; title: string; steps: string[] }
  | { kind: 'question'; question: string; options?: string[] }
  /** `effects`: what the call will do, in the tool's own words (e.g. the files a revert restores). */
  | { kind: 'json'; effects?: string[] };

export type ApprovalRequest = {
  id: string;
  agentId: string;
  agentName: string;
  parentAgentId?: string;
  taskId: string;
  step?: { index: number; total?: number; title?: string };
  /** The model's stated reason for the call, when it gave one. */
  why?: string;
  tool: string;
  args: unknown;
  argsHash: string;
  risk: Risk;
  rule: RuleRef;
  /** One sentence saying why the policy asks. */
  explanation: string;
  preview: ApprovalPreview;
  reversible: boolean;
  createdAt: string;
  expiresAt?: string;
  grantOptions: GrantScope[];
  /** Set when an edit was refused; the request stays pending. */
  editError?: string;
  /**
   * Bumped by the core whenever a still-pending request changes (e.g. an edit was refused again),
   * so the UI knows a decision it sent was answered and the request takes a new one.
   */
  revision?: number;
};

export type Decision =
  | { kind: 'approve' }
  | { kind: 'approve_all'; scope: GrantScope }
  | { kind: 'reject'; reason?: string }
  | { kind: 'skip' }
  | { kind: 'edit'; args: unknown }
  | { kind: 'cancel_task' }
  /** Answers for propose_plan (edited steps) and ask_user. */
  | { kind: 'answer'; text: string }
  | { kind: 'approve_plan'; steps: string[] };

export type Outcome = 'executed' | 'rejected' | 'skipped' | 'blocked' | 'cancelled' | 'timeout' | 'error';
export type Approver = 'policy' | 'rule' | 'grant' | 'human' | 'none';

/** Why a request ended without a person's decision; each failure has its own code. */
export type FailCode =
  | 'timeout'
  | 'no_approver'
  | 'input_closed'
  | 'gate_error'
  | 'invalid_input'
  | 'task_cancelled'
  | 'expired'
  | 'repeat_rejected'
  | 'token_mismatch'
  | 'file_changed'
  /** The decision line could not be written to the audit log: nothing runs without it. */
  | 'audit_unavailable';

/** The JSON every tool call returns to the model. */
export type ToolResultEnvelope = {
  status: Outcome;
  by?: 'user' | 'policy' | 'guard' | 'grant' | 'gate' | 'tool';
  reason?: string;
  rule?: string;
  retry?: boolean;
  output?: string;
  data?: unknown;
};

export type AgentStatus = 'running' | 'waiting' | 'done' | 'failed' | 'cancelled';
export type AgentInfo = {
  id: string;
  name: string;
  parentId?: string;
  taskId: string;
  task: string;
  status: AgentStatus;
  report?: string;
};

export type ToolCardStatus = 'running' | 'waiting' | Outcome;
export type TranscriptEntry =
  | { kind: 'user'; id: string; text: string }
  | { kind: 'assistant'; id: string; agentId: string; text: string; streaming: boolean }
  | {
      kind: 'tool';
      id: string;
      agentId: string;
      tool: string;
      summary: string;
      status: ToolCardStatus;
      result?: string;
    }
  | { kind: 'notice'; id: string; level: 'info' | 'warn' | 'error'; text: string };

export type PlanState = { title: string; steps: { text: string; done: boolean }[] };

/**
 * Why a turn ended before the model finished: `idle_timeout` (nothing arrived for
 * streamIdleTimeoutSec), `turn_timeout` (one answer took longer than turnTimeoutSec), `truncated`
 * (the stream ended with no finish_reason and no [DONE]; its tool calls did not run),
 * `context_window`, `max_steps`, or `model_error` (any other failure of the model server).
 */
export type TurnStop = 'idle_timeout' | 'turn_timeout' | 'truncated' | 'context_window' | 'max_steps' | 'model_error';

/** One place policy rules were loaded from, as the core reports it for /policy. `held`: rules kept back (untrusted project). */
export type PolicySourceInfo = { source: RuleSource; path?: string; rules: number; error?: string; held?: number };

/** One rule or setting of a project's `.warden` files that would loosen the gate. */
export type LooseningItem = { kind: 'rule' | 'setting'; file: string; text: string };

/**
 * Whether the project's `.warden/policy.json` and `config.json` may loosen the gate. `none`: they
 * loosen nothing, there is nothing to trust. `untrusted`: `items` are held back (ask and deny rules
 * count anyway). `trusted`: `items` are in force, bound to `hash` (a change needs trust again).
 * `asking`: the trust card is waiting for the person. `by`: where trust came from.
 */
export type ProjectTrustState = {
  status: 'none' | 'untrusted' | 'trusted';
  asking: boolean;
  hash: string;
  items: LooseningItem[];
  by?: 'record' | 'flag' | 'person';
  /** Where the trust record is kept (`$WARDEN_HOME/trust.json`). */
  store: string;
};

export type CoreState = {
  sessionId: string;
  root: string;
  model: { name: string; demo: boolean };
  mode: Mode;
  sandboxed: boolean;
  busy: boolean;
  pending: ApprovalRequest[];
  grants: Grant[];
  agents: AgentInfo[];
  transcript: TranscriptEntry[];
  plan?: PlanState;
  usage: { promptTokens: number; completionTokens: number };
  recentAudit: AuditRecord[];
  mcp: { name: string; status: 'starting' | 'ready' | 'failed'; tools: number; error?: string }[];
  /** Where the active rules came from; optional, the UI says so when a core does not report it. */
  policy?: { sources: PolicySourceInfo[] };
  /** The project's trust; absent from a core that does not report it. */
  trust?: ProjectTrustState;
  /** Present while the audit log cannot be written: every tool call fails closed (`audit_unavailable`). */
  auditUnavailable?: { error: string; since: string };
};

export type CoreEvent =
  | { type: 'state_changed' }
  | { type: 'message_delta'; agentId: string; text: string }
  | { type: 'message_done'; agentId: string; text: string }
  | { type: 'tool_started'; agentId: string; callId: string; tool: string; args: unknown }
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
  | { type: 'audit_result'; queryId: string; records: AuditRecord[]; stats: AuditStats }
  | { type: 'notice'; level: 'info' | 'warn' | 'error'; text: string }
  /** The project's trust changed (the person answered the card, or its files changed). */
  | { type: 'trust_changed'; trust: ProjectTrustState }
  | { type: 'error'; message: string };

export type CoreCommand =
  | { type: 'submit'; text: string }
  | { type: 'decide'; id: string; decision: Decision }
  | { type: 'report_invalid_input'; id: string }
  | { type: 'cancel' }
  | { type: 'set_mode'; mode: Mode }
  | { type: 'revoke_grant'; grantId: string }
  | { type: 'save_grant'; grantId: string; target: 'project' | 'user' }
  | { type: 'undo'; turns: number }
  | { type: 'clear' }
  | { type: 'query_audit'; queryId: string; query: AuditQuery }
  | { type: 'restart_mcp'; server: string }
  /**
   * The trust card's answer for the files whose `hash` it showed: `true` trusts them (recorded in
   * `$WARDEN_HOME/trust.json`), `false` keeps their loosening held back. Answered by
   * `trust_changed` (and a notice); if the files changed since the card was shown, nothing is
   * trusted and a new card comes with the new `trust_changed`.
   */
  | { type: 'trust_project'; trust: boolean; hash: string }
  | { type: 'input_closed' }
  | { type: 'quit' };

/** The UI's whole view of the core. Contract: `send` never throws; errors arrive as events. */
export type CoreClient = {
  subscribe(listener: (event: CoreEvent) => void): () => void;
  send(command: CoreCommand): void;
  snapshot(): CoreState;
};
