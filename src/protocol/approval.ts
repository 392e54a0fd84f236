/**
 * Approval types of the UI↔core contract: what the gate asks a person (`ApprovalRequest` with its
 * preview and grant scopes), what a person answers (`Decision`), and what a call came to.
 */

export type RiskLevel = 'low' | 'medium' | 'high';
export type Risk = { level: RiskLevel; reasons: string[] };
/**
 * `managed`: a rule of the managed policy (`/etc/warden/policy.json`), which nothing below loosens.
 * `hook`: a PreToolUse hook tightened the policy's verdict (its rule id is `hook:<name>`).
 */
export type RuleSource = 'builtin' | 'managed' | 'user' | 'project' | 'mode' | 'guard' | 'grant' | 'hook';
export type RuleRef = { id: string; source: RuleSource };

/** What approve-all may grant; computed by the gate from the call, never by the model. */
export type GrantMatch =
  | { kind: 'tool' }
  | { kind: 'path_glob'; glob: string }
  | { kind: 'command_prefix'; tokens: string[] }
  | { kind: 'mcp_server'; server: string }
  /** web_fetch to exactly this host (no subdomains). */
  | { kind: 'domain'; domain: string }
  /**
   * The known steps of an approved plan: exactly the commands (in backticks) and the
   * paths its steps named, until that plan (`plan`: its key) is done or replaced. Never high risk.
   */
  | { kind: 'plan_steps'; plan: string; commands: string[]; paths: string[] };

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
      /**
       * The hosts the command may reach through warden's proxy (its `network` argument; without one it
       * has no network). `warning`: an address of this machine or a private network; `listed`: the
       * person's own `sandbox.network` lists it already.
       */
      network?: { host: string; warning?: string; listed?: true }[];
      /**
       * For a command that runs project code: the files agents changed this session that the person has
       * not reviewed (turns whose review is open, writes they saw no diff of), and the commands run this
       * turn whose changes are not listed yet.
       */
      unreviewed?: { files: string[]; commands: number };
    }
  | { kind: 'plan'; title: string; steps: string[] }
  | { kind: 'question'; question: string; options?: string[] }
  /** `effects`: what the call will do, in the tool's own words (e.g. the files a revert restores). */
  | { kind: 'json'; effects?: string[] }
  /** An agent stopped and asks for help (see `Escalation`). */
  | ({ kind: 'escalation' } & Escalation);

/** What made an agent stop and ask: a hard rule of the loop, or the model itself (the escalate tool). */
export type EscalationTrigger = 'failures' | 'rejections' | 'max_steps' | 'model';

/** An escalation card's content: the goal, what was tried (calls and short results), what is needed. */
export type Escalation = {
  trigger: EscalationTrigger;
  goal: string;
  tried: { call: string; result: string }[];
  needs: string;
};

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
  /** Undo restores everything the call does (checkpointed writes). */
  reversible: boolean;
  /**
   * Not wholly reversible, but the project's files it changes are in the turn's checkpoint (a command,
   * an MCP writer, with shadow-git checkpoints): undo restores those files, not effects elsewhere.
   */
  undoRestoresFiles?: true;
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
  /**
   * The person's edit, re-checked and waiting for their `approve`: `args`, `argsHash` and `preview` are
   * then the edited call's; `proposed` is what the model sent and `changes` says what differs, one line each.
   */
  edited?: { proposed: unknown; changes: string[] };
  /** The model's tool-call id this request answers (a resumed session re-offers it under the same id). */
  callId?: string;
  /** The hash of the file a write replaces, as the preview read it (absent for new files and other tools). */
  preImageHash?: string;
  /**
   * Set when the request was pending when warden stopped and is offered again after a resume: the
   * original request's id; `fileChanged` when the file is not what it was then (this is a new diff).
   * `createdAt` stays the original's, and `approvalTimeoutSec` counts from it.
   */
  resumedFrom?: { requestId: string; fileChanged?: true };
  /**
   * The digest of the policy (rules and mode) the card was asked under: a decision from elsewhere binds
   * it, and does not apply once the policy changed.
   */
  policyDigest?: string;
  /**
   * The card needs two approvals from two distinct identities (`twoPerson`): `approvedBy` holds the
   * first once given (the card keeps waiting for the second, from another identity than the first and
   * never the requester's). No approve-all is offered.
   */
  twoPerson?: { approvedBy: DecidedBy[] };
};

export type Decision =
  /**
   * `confirmHigh`: the second confirmation a high-risk tool card needs, from every channel (the
   * drawer's second `y`, `warden approve --confirm-high`); the core refuses a high-risk approve without it.
   */
  | { kind: 'approve'; confirmHigh?: true }
  | { kind: 'approve_all'; scope: GrantScope }
  | { kind: 'reject'; reason?: string }
  | { kind: 'skip' }
  /**
   * The person's arguments instead of the model's. `review`: do not run yet: the core re-checks them and
   * shows the edited call (its diff, `request.edited`), and the next `approve` runs it.
   */
  | { kind: 'edit'; args: unknown; review?: true }
  | { kind: 'cancel_task' }
  /** Answers for propose_plan (edited steps) and ask_user. */
  | { kind: 'answer'; text: string }
  | { kind: 'approve_plan'; steps: string[] }
  /** Answers an escalation card: retry with the person's instruction, or take over (the agent pauses). Skip and cancel use `skip` and `cancel_task`. */
  | { kind: 'escalation'; choice: 'retry' | 'take_over'; instruction?: string };

export type Outcome = 'executed' | 'rejected' | 'skipped' | 'blocked' | 'cancelled' | 'timeout' | 'error';
/** `hook:<name>`: a `PermissionRequest` hook answered the card where a person could have. */
export type Approver = 'policy' | 'rule' | 'grant' | 'human' | 'none' | `hook:${string}`;

/** Where a decision came from: the app, `warden approve` in another terminal, or a hook. */
export type DecisionChannel = 'tui' | 'cli' | 'hook';

/**
 * Who gave a decision and through which channel (the audit's `decidedBy`). `keyId`: the signing key
 * of a decision from outside the app; `hook`: the hook's name.
 */
export type DecidedBy = {
  channel: DecisionChannel;
  user?: string;
  host?: string;
  tty?: string;
  keyId?: string;
  hook?: string;
  /** The approver's own words on an approve given outside the app (`warden approve --reason`). */
  reason?: string;
  /** The name the signing key is registered under (`approvers/NAME.pub`): another identity than the requester. */
  keyName?: string;
};

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
  | 'audit_unavailable'
  /** A headless run stopped to wait for an answer from elsewhere (`--on-ask park`): offered again on resume. */
  | 'parked'
  /** A hook failed (exit code, timeout, output that is not its JSON): fails closed. */
  | 'hook_failed';

/** The JSON every tool call returns to the model. */
export type ToolResultEnvelope = {
  status: Outcome;
  /** `hook`: a hook of the person's (or of a trusted project) blocked or rejected the call; `rule` names it. */
  by?: 'user' | 'policy' | 'guard' | 'grant' | 'gate' | 'tool' | 'hook';
  reason?: string;
  rule?: string;
  retry?: boolean;
  output?: string;
  data?: unknown;
  /**
   * The person edited the call before it ran: the arguments that ran (long text shortened; `changes`
   * says what differs from the model's call), so the model keeps the person's version.
   */
  edited?: { by: 'user'; note: string; args: unknown; changes: string[] };
};
