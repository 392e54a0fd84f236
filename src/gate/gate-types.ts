import type { AuditRecord, AuditWrite } from '../protocol/audit';
import type { ApprovalRequest, Decision } from '../protocol';
import type { CallFacts, FactDeps } from '../policy/facts';
import type { PolicyContext, PolicyResult } from '../policy/resolve';
import type { AnyTool, ToolContext } from '../tools/types';
import type { BrokerEvent, BrokerOptions } from './broker';
import type { GrantStore } from './grants';
import type { PreToolCall } from '../hooks/pre-tool-use';
import type { ResumedCall } from './resume-check';
import type { TwoPersonRule } from './two-person';

// The gate's contract with its callers (session, agents, tests): who calls, what, and what it is built from.

/** Who is calling: the agent, its task, and where its turn's checkpoints go. */
export type Caller = {
  agentId: string;
  agentName: string;
  parentAgentId?: string;
  taskId: string;
  step?: ApprovalRequest['step'];
  signal: AbortSignal;
  recordPreImage?: ToolContext['recordPreImage'];
  /**
   * Takes a checkpoint before a call whose tool declares `changesFiles`; a rejection fails the call
   * closed (`checkpoint_failed`). The function it may resolve to is called once the call has ended
   * (the checkpoint after it: what changed in between is the call's own). `ahead`: a warm-up while the
   * card shows.
   */
  checkpoint?: (label: string, ahead?: boolean) => Promise<(() => Promise<void>) | undefined | void>;
  /** The agent layer's ports for this caller (sub-agents, plan); handed to the tool like `recordPreImage`. */
  agents?: ToolContext['agents'];
  /**
   * `person`: the person typed this call themselves (`!command`). Guards and deny rules hold as for any
   * call; what would ask runs as the person's own decision (approver `human`), audited with `origin: person`.
   * Only the session's command handler builds such a caller; nothing the model sends can.
   */
  origin?: 'person';
};

/** `onOutput`: hears the call's output while it runs (handed to the tool as `ToolContext.onOutput`). */
export type ToolCall = {
  id: string;
  tool: string;
  args: unknown;
  why?: string;
  onOutput?: (chunk: string) => void;
  /** A request pending when warden stopped, offered again after a resume: checked again, whole (resume-check.ts). */
  resumedFrom?: ResumedCall;
  /**
   * warden's own call (the loop's escalation card), which may set the arguments a tool marks internal.
   * Only warden's code builds it; a model's call never has it (its name and arguments are all it sends).
   */
  internal?: true;
};

/** What the approval queue tells its listener (requested, updated, resolved, invalid input). */
export type ApprovalEvent = BrokerEvent;

/** How the approval queue behaves: decision timeout, invalid-input limit, clock, and who hears its events. */
export type ApprovalOptions = BrokerOptions;

/**
 * A person's decision on a call, as the session's feedback hears it: repeated approvals
 * and edits become offers, rejections are remembered for the task's agents. `edited`: the accepted
 * edit's arguments when they differ from the model's.
 */
export type DecidedCall = {
  decision: Decision;
  tool: string;
  facts: CallFacts;
  policy: PolicyResult;
  caller: Caller;
  args: Record<string, unknown>;
  edited?: Record<string, unknown>;
  summary: string;
};

/** Why everything pending ends at once: the input is gone (also refuses later asks), the approver left, or the session stops. */
export type CloseCode = 'input_closed' | 'no_approver' | 'task_cancelled' | 'parked';

/**
 * Where the gate's audit lines go. Contract: `ok` only when the line is in the log, whole; the gate runs
 * nothing otherwise. `appendSoon` is `append` for a line the gate can wait for (a call's decision before
 * it runs, its outcome before its result goes back): lines made in the same microtask turn share a write.
 */
export type AuditSink = {
  append(record: AuditRecord): AuditWrite;
  appendSoon(record: AuditRecord): Promise<AuditWrite>;
};

export type GateOptions = {
  tools: readonly AnyTool[];
  deps: FactDeps;
  policy: () => PolicyContext;
  /** The gate builds and owns its approval queue; nothing else reaches it. */
  approvals: ApprovalOptions;
  grants: GrantStore;
  audit: AuditSink;
  sessionId: string;
  defaultCommandTimeoutMs?: number;
  /**
   * Makes the command guard ready for `command` (its text, when the call's argument is text): awaited
   * before each call whose tool runs a command is judged — nothing is judged by a missing parser —
   * while other calls never wait for it. A plain line needs only the judge's module; any other, or
   * none, the shell grammar (a wasm parser, loaded once). Contract: resolves once the guard can judge
   * the command or has failed to load (then it answers "cannot judge", so the command asks).
   */
  loadCommandGuard?: (command?: string) => Promise<void>;
  /**
   * What every call waits for before it is judged, while it has not yet resolved: the session's
   * sandbox verdict when the app drew its first screen first (a call judged as "not sandboxed" on a
   * placeholder could be approved and run unsandboxed). Contract: never rejects.
   */
  ready?: () => Promise<void>;
  /**
   * Whether the turn's checkpoints hold the whole project (shadow git), so a command's changes to the
   * project's files can be undone; false with the pre-image fallback (only warden's own writes).
   */
  checkpointsCoverProject?: () => boolean;
  /** Hears every person's decision (approve, edit, reject …) before its call runs. Its failure changes nothing. */
  onDecided?: (decided: DecidedCall) => void;
  /** Which cards need two approvals from two distinct identities (`twoPerson`), read for each call. */
  twoPerson?: () => TwoPersonRule | undefined;
  /**
   * The PreToolUse hooks (src/hooks/pre-tool-use.ts): the verdict they leave, never looser than
   * `policy`, or undefined when none applies (the call goes on at once). Contract: never rejects.
   */
  preToolUse?: (call: PreToolCall, policy: PolicyResult) => Promise<PolicyResult> | undefined;
};

/** A call whose arguments passed the schema, with its facts and the policy's verdict on them. */
export type Checked = {
  tool: AnyTool;
  args: Record<string, unknown>;
  facts: CallFacts;
  policy: PolicyResult;
  /** The policy in force the verdict came from (its digest goes on the card: what an answer binds). */
  context?: PolicyContext;
};

/** What the gate keeps of a request waiting for a person, to drain it when a grant covers it. */
export type Asked = { facts: CallFacts; policy: PolicyResult; caller: Caller };

/** What a run carries besides its arguments. `lift`: protected paths a person approved writing in this run (absolute, real). */
export type RunExtras = {
  fileHash?: string;
  answer?: string;
  checked?: CallFacts;
  lift?: string[];
  /** Credential files a person approved reading in this run (absolute, real). */
  unmask?: string[];
  /** The hosts this run may reach through warden's proxy (network-hosts.ts entries, as text). */
  network?: string[];
  /** The facts the call was decided on, for provenance (`checked` when absent). */
  seen?: CallFacts;
};
