/**
 * The one gate every tool call passes, in this order: the arguments' schema (tools/parse-args);
 * the hard guards — path fence, command guard, SSRF, size caps — which deny and no person can
 * override (policy/facts); the policy rules, deny → ask → allow, with the mode and the risk
 * (policy/resolve); the session's grants; a person, for whatever still asks (broker); a one-time
 * token bound to the hash of the arguments (tokens); the guards again at execution (executor);
 * and one audit record per decision and per outcome, written before any effect.
 * This file is the orchestration; each step lives in its own module. Over 400 lines: the ask →
 * decide → run sequence reads best in one place, and this round added steps to it (a person's edit
 * re-checked on the card, a request re-offered after a restart, the checkpoint before any effect,
 * the task cancel on the record); the edit review is the next to move out beside edited-call.ts.
 */
import { randomUUID } from 'node:crypto';
import type { AuditRecord, AuditWrite } from '../protocol/audit';
import { type RecordBase, auditRecord } from './audit-record';
import type { ToolSpec } from '../llm/types';
import type { ApprovalRequest, Approver, Decision, ToolResultEnvelope } from '../protocol';
import { type CallFacts, type FactDeps, gatherFacts } from '../policy/facts';
import { type PolicyContext, type PolicyResult, resolvePolicy } from '../policy/resolve';
import { parseToolArgs } from '../tools/parse-args';
import type { AnyTool, ToolContext } from '../tools/types';
import {
  ApprovalBroker,
  type BrokerEvent,
  type BrokerOptions,
  type BrokerOutcome,
  type EditReview,
} from './broker';
import {
  type Ending,
  auditUnavailable,
  blocked,
  endingOfExecution,
  endingWithoutRun,
  gateError,
} from './envelopes';
import { describeChanges, editedResult } from './edited-call';
import { GuardedExecutor } from './executor';
import { type GrantStore, grantOptions, grantable, planGrantOptions, scopeCovers } from './grants';
import { canonicalJson, hashArgs } from './hash';
import { buildPreview, declaredOf, readExisting } from './preview';
import { Provenance, runsProjectCode } from './provenance';
import { rejectionKey } from './rejection-key';
import { type ResumedCall, resumeCheck, resumedRequestFields } from './resume-check';
import { checkpointAheadOnce, readOnlyRun } from './read-only-run';
import {
  copyArgs,
  editedTargetHash,
  internalArgument,
  offeredScope,
  protectedWrites,
  ruleApprover,
  safeHash,
  scopeKey,
} from './gate-steps';
import { toolSpecs } from './specs';
import { callLine } from '../text/call-line';
import { TokenMint } from './tokens';

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
 * A person's decision on a call, as the session's feedback hears it (issue 14 §5): repeated approvals
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
export type CloseCode = 'input_closed' | 'no_approver' | 'task_cancelled';

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
   * Loads the command guard (the shell grammar, a wasm parser) on first use: awaited before the
   * first call whose tool runs a command is judged — nothing is judged by a missing parser — while
   * other calls never wait for it. Contract: resolves once the guard is usable or has failed to
   * load (then the guard answers "cannot judge" for every command, so each one asks).
   */
  loadCommandGuard?: () => Promise<void>;
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
};

type Checked = { tool: AnyTool; args: Record<string, unknown>; facts: CallFacts; policy: PolicyResult };
type Asked = { facts: CallFacts; policy: PolicyResult; caller: Caller };
const MAX_REASKS = 2;
const DECISION_KINDS: ReadonlySet<Decision['kind']> = new Set([
  'approve',
  'approve_all',
  'reject',
  'skip',
  'edit',
  'cancel_task',
  'answer',
  'approve_plan',
  'escalation',
]);
/** The decisions after which the call runs; every other ending is handled before. */
const RUNNING_DECISIONS: ReadonlySet<Decision['kind']> = new Set([
  'approve',
  'approve_all',
  'edit',
  'answer',
  'approve_plan',
  'escalation',
]);

export class Gate {
  private readonly tools: Map<string, AnyTool>;
  private readonly mint = new TokenMint();
  private readonly executor: GuardedExecutor;
  private readonly rejected = new Map<string, Set<string>>();
  private readonly asked = new Map<string, Asked>();

  /** The command guard has loaded (or failed to): command calls no longer wait for it. */
  private guardLoaded: boolean;
  /** The `ready` hook has resolved: calls no longer wait for it. */
  private isReady: boolean;
  private readonly broker: ApprovalBroker;
  /** What agents changed that the person has not reviewed: shown on the cards of commands that run project code. */
  readonly provenance = new Provenance();

  /** `broker`: only tests pass one (to drive the queue directly); the gate otherwise builds it from `approvals`. */
  constructor(
    private readonly o: GateOptions,
    broker?: ApprovalBroker,
  ) {
    this.broker = broker ?? new ApprovalBroker(o.approvals);
    this.guardLoaded = o.loadCommandGuard === undefined;
    this.isReady = o.ready === undefined;
    this.tools = new Map(o.tools.map((t) => [t.name, t]));
    this.executor = new GuardedExecutor(this.tools, this.mint, o.deps);
  }

  /** Replaces every tool whose name starts with `prefix` (MCP servers come and go). */
  replaceTools(prefix: string, tools: readonly AnyTool[]): void {
    for (const name of [...this.tools.keys()]) if (name.startsWith(prefix)) this.tools.delete(name);
    for (const tool of tools) if (tool.name.startsWith(prefix)) this.tools.set(tool.name, tool);
  }

  /** The requests waiting for a person, in arrival order (copies the UI may keep). */
  pending(): ApprovalRequest[] {
    return this.broker.pending();
  }

  /** A UI (or a scripted approver) is listening; returns a detach function. Without one every ask fails as `no_approver`. */
  attachApprover(): () => void {
    return this.broker.attachApprover();
  }

  /** The UI saw a key it could not use on a request; the limit-th in a row rejects it (`invalid_input`). */
  reportInvalid(id: string): void {
    this.broker.reportInvalidInput(id);
  }

  /**
   * Ends every pending request with `code`. Contract: `input_closed` also fails every later ask at once
   * (until an approver attaches again); nothing pending is ever resolved as approved.
   */
  close(code: CloseCode, reason?: string): void {
    if (code === 'input_closed') this.broker.closeInput(reason);
    else
      this.broker.failWhere(
        () => true,
        code,
        reason ?? (code === 'no_approver' ? 'The approver went away.' : 'The task was cancelled.'),
      );
  }

  /** The tools as the model sees them (names, descriptions, JSON Schemas) — never their executors; a sub-agent's leave out what is not for it. */
  specs(forSubAgent = false): ToolSpec[] {
    return toolSpecs([...this.tools.values()].filter((t) => !(forSubAgent && t.forSubAgents === false)));
  }

  /** One line for a call's tool card: the tool's own summary of its valid arguments, else the first plain argument. Never throws. */
  /** The arguments' hash the gate records for a call of `name` (its schema applied), or undefined if they do not parse. */
  argsHashOf(name: string, raw: unknown): string | undefined {
    const tool = this.tools.get(name);
    const parsed = tool ? parseToolArgs(tool, raw) : undefined;
    return parsed?.ok ? hashArgs(parsed.args) : undefined;
  }

  summary(name: string, args: unknown): string {
    const tool = this.tools.get(name);
    const parsed = tool?.summary ? tool.schema.safeParse(args) : undefined;
    if (tool?.summary && parsed?.success) {
      try {
        return String(tool.summary(parsed.data));
      } catch {
        // A summary is decoration: the generic line stands in.
      }
    }
    return callLine(args);
  }

  /**
   * Passes one tool call through the gate and, if allowed, runs it.
   * Contract: never throws; any failure inside the gate ends as an error and nothing runs.
   */
  async intercept(call: ToolCall, caller: Caller): Promise<ToolResultEnvelope> {
    try {
      if (!this.isReady && this.o.ready) {
        await this.o.ready();
        this.isReady = true;
      }
      if (!this.guardLoaded && this.tools.get(call.tool)?.guarded?.command !== undefined) {
        await this.o.loadCommandGuard?.();
        this.guardLoaded = true;
      }
      return await this.pass(call, caller);
    } catch (err) {
      const ending = gateError(`gate_error: ${(err as Error).message}`);
      try {
        this.auditBoth(
          call,
          caller,
          { decision: 'deny', rule: 'gate-error', risk: 'high', argsHash: safeHash(call.args) },
          ending,
        );
      } catch {
        // The audit sink failed as well (its contract says it never throws); the model still gets the error.
      }
      return ending.envelope;
    }
  }

  /** A person's decision on a pending request. An approve-all scope must be one the gate offered. */
  decide(id: string, decision: Decision): { ok: true } | { ok: false; error: string } {
    // Decisions can arrive from outside the type checker (scripts, JSON): anything unknown approves nothing.
    if (!DECISION_KINDS.has((decision as { kind?: unknown } | undefined)?.kind as Decision['kind']))
      return { ok: false, error: 'Unknown decision.' };
    if (
      decision.kind === 'approve_all' &&
      decision.scope.minutes !== undefined &&
      !(Number.isFinite(decision.scope.minutes) && decision.scope.minutes > 0)
    ) {
      return { ok: false, error: 'An approve-all time limit must be a positive number of minutes.' };
    }
    const request =
      decision.kind === 'approve_all' ||
      decision.kind === 'answer' ||
      decision.kind === 'approve_plan' ||
      decision.kind === 'escalation'
        ? this.broker.pending().find((r) => r.id === id)
        : undefined;
    if (request && decision.kind === 'escalation' && request.preview.kind !== 'escalation')
      return { ok: false, error: `An escalation answer does not apply to ${request.tool}.` };
    if (request && decision.kind === 'approve_all') {
      const key = scopeKey(decision.scope);
      if (!request.grantOptions.some((s) => scopeKey(s) === key))
        return { ok: false, error: 'That approve-all scope was not offered for this request.' };
    }
    // An answer or a plan approval is not a way around the schema, nor an approval of another tool:
    // each applies only to a card whose tool declared a question or a plan.
    if (request && decision.kind === 'answer' && request.preview.kind !== 'question')
      return { ok: false, error: `An answer does not apply to ${request.tool}.` };
    if (request && decision.kind === 'approve_plan') {
      const tool = this.tools.get(request.tool);
      if (request.preview.kind !== 'plan' || !tool)
        return { ok: false, error: `A plan approval does not apply to ${request.tool}.` };
      const parsed = parseToolArgs(tool, {
        ...(request.args as Record<string, unknown>),
        steps: decision.steps,
      });
      if (!parsed.ok) return { ok: false, error: parsed.error };
    }
    if (decision.kind === 'edit' && decision.review) return this.stageEdit(id, decision.args);
    return this.broker.decide(id, decision);
  }

  /**
   * A person's edit to review before it runs: re-checked now (schema, guards, policy), then shown on the
   * card with its own preview (`request.edited`); the person's next approve runs it. Contract: a refused
   * edit keeps the request pending with `editError`; nothing runs here.
   */
  private stageEdit(id: string, edited: unknown): { ok: true } | { ok: false; error: string } {
    const request = this.broker.pending().find((r) => r.id === id);
    const tool = request && this.tools.get(request.tool);
    if (!request || !tool) return { ok: false, error: `No pending request ${id}.` };
    const review = this.reviewEdit(tool, edited);
    if (review.kind !== 'accept') {
      const error = review.kind === 'invalid' ? review.error : `blocked (${review.ruleId}): ${review.reason}`;
      this.broker.refuseEdit(id, error);
      return { ok: false, error };
    }
    const { args, facts } = review.checked;
    const proposed = request.edited?.proposed ?? request.args;
    const refuse = (error: string) => this.broker.refuseEdit(id, error);
    void buildPreview(facts, this.o.defaultCommandTimeoutMs ?? 60_000, declaredOf(tool, args)).then(
      ({ preview, invalid }) =>
        invalid !== undefined
          ? refuse(invalid)
          : this.broker.stageEdit(id, {
              args: copyArgs(args),
              argsHash: hashArgs(args),
              preview,
              edited: { proposed, changes: describeChanges(proposed, args) },
            }),
      (err: unknown) => refuse(`The edited call could not be previewed: ${(err as Error)?.message}`),
    );
    return { ok: true };
  }

  /** The repeat-rejection key of a call ("the same call" for the gate), or undefined when its arguments do not parse. Never throws. */
  similarKey(name: string, raw: unknown): string | undefined {
    const tool = this.tools.get(name);
    if (!tool) return undefined;
    try {
      const result = this.check(tool, raw);
      if (!result.ok) return undefined;
      const { args, facts } = result.checked;
      return rejectionKey(tool.name, tool.guarded?.command, facts, hashArgs(args));
    } catch {
      return undefined;
    }
  }

  /**
   * Audits a task's cancellation by the person (one outcome line, outcome `cancelled`, approver
   * `human`). Contract: never throws.
   */
  recordCancel(task: { agentId: string; agentName: string; taskId: string }, reason: string): void {
    const args = { cancelled: task.taskId };
    const ending: Ending = {
      envelope: { status: 'cancelled', by: 'user', reason },
      outcome: 'cancelled',
      approver: 'human',
      reason: `task_cancelled: ${reason}`,
    };
    this.audit(
      { id: `cancel-${task.taskId}`, tool: 'task', args },
      { ...task, signal: new AbortController().signal },
      { decision: 'deny', rule: 'person', risk: 'low', argsHash: safeHash(args) },
      'human',
      ending,
    );
  }

  private check(tool: AnyTool, raw: unknown): { ok: true; checked: Checked } | { ok: false; error: string } {
    const parsed = parseToolArgs(tool, raw);
    if (!parsed.ok) return parsed;
    const args = parsed.args as Record<string, unknown>;
    const facts = gatherFacts(tool, args, this.o.deps);
    return { ok: true, checked: { tool, args, facts, policy: resolvePolicy(facts, this.o.policy()) } };
  }

  /** Not `async`: one promise less on the hot path; `intercept` awaits it inside its try. */
  private pass(call: ToolCall, caller: Caller): ToolResultEnvelope | Promise<ToolResultEnvelope> {
    const tool = this.tools.get(call.tool);
    if (!tool)
      return this.refuse(
        call,
        caller,
        'unknown-tool',
        `There is no tool named ${call.tool}. Available: ${[...this.tools.keys()].join(', ')}.`,
      );
    // What a sub-agent is not offered it cannot call: a sub-agent's model that sent spawn_agents anyway
    // started sub-agents of its own, each able to do the same, with no limit (red-team finding).
    if (caller.parentAgentId !== undefined && tool.forSubAgents === false)
      return this.refuse(
        call,
        caller,
        'sub-agent-tool',
        `${call.tool} is not available to a sub-agent; report back to ${caller.parentAgentId} instead.`,
      );
    const result = this.check(tool, call.args);
    if (!result.ok)
      return this.refuse(call, caller, 'schema', `Invalid arguments for ${call.tool}: ${result.error}`);
    // An internal argument is warden's voice on the card (the escalation's "reached its step limit"): a
    // model that sent one anyway dressed its own card up as the loop's hard rule (red-team finding).
    const internal = call.internal ? undefined : internalArgument(tool, call.args);
    if (internal !== undefined)
      return this.refuse(
        call,
        caller,
        'schema',
        `Invalid arguments for ${call.tool}: ${internal} is set by warden, not by the model; leave it out.`,
      );
    const { args, facts, policy } = result.checked;
    const argsHash = hashArgs(args);
    const base: RecordBase = {
      decision: policy.decision,
      rule: policy.rule.id,
      risk: policy.risk.level,
      argsHash,
      ...(call.resumedFrom ? { resumedFrom: call.resumedFrom.requestId } : {}),
    };
    if (policy.decision === 'deny') {
      const ending = blocked(
        policy.rule.id,
        policy.explanation,
        policy.rule.source === 'guard' ? 'guard' : 'policy',
        ruleApprover(policy),
      );
      this.auditBoth({ ...call, args }, caller, base, ending);
      return ending.envelope;
    }
    // Offered again after a restart: the same arguments, not expired since first asked — or nothing runs.
    const stale =
      call.resumedFrom && resumeCheck(call.resumedFrom, argsHash, this.o.approvals.timeoutMs, Date.now());
    if (stale) {
      this.auditBoth({ ...call, args }, caller, base, stale);
      return stale.envelope;
    }
    // Allowed or granted without a wait: the facts just gathered are the execution-time check (Gate.run).
    // A person's own `!command` is their decision: what would ask runs as theirs (never what is denied).
    if (policy.decision === 'allow' || caller.origin === 'person')
      return this.run(
        tool,
        args,
        caller,
        { ...base, call: { ...call, args } },
        caller.origin === 'person' ? 'human' : ruleApprover(policy),
        { checked: facts },
      );
    const rejectedKey = rejectionKey(tool.name, tool.guarded?.command, facts, argsHash);
    if (this.rejected.get(caller.taskId)?.has(rejectedKey)) {
      const reason =
        'repeat_rejected: the person already rejected exactly this call in this task; change the plan instead of asking again.';
      const ending: Ending = {
        envelope: { status: 'rejected', by: 'gate', reason, retry: false },
        outcome: 'rejected',
        approver: 'none',
        reason,
      };
      this.auditBoth({ ...call, args }, caller, base, ending);
      return ending.envelope;
    }
    if (this.o.grants.match(facts, policy.risk, caller))
      return this.run(tool, args, caller, { ...base, call: { ...call, args } }, 'grant', { checked: facts });
    return this.askPerson(result.checked, call, caller, base);
  }

  private async askPerson(
    checked: Checked,
    call: ToolCall,
    caller: Caller,
    base: RecordBase,
    reask = 0,
    note?: string,
  ): Promise<ToolResultEnvelope> {
    const { tool, args, facts, policy } = checked;
    const { preview, fileHash, invalid } = await buildPreview(
      facts,
      this.o.defaultCommandTimeoutMs ?? 60_000,
      declaredOf(tool, args),
    );
    // An edit that cannot apply to the file as it is: the model learns why; nobody is asked to approve it.
    if (invalid !== undefined) return this.refuse({ ...call, args }, caller, 'edit-not-applicable', invalid);
    if (preview.kind === 'command' && runsProjectCode(facts)) {
      const unreviewed = this.provenance.unreviewed();
      if (unreviewed.files.length > 0 || unreviewed.commands > 0) preview.unreviewed = unreviewed;
    }
    const request: ApprovalRequest = {
      id: randomUUID(),
      agentId: caller.agentId,
      agentName: caller.agentName,
      ...(caller.parentAgentId ? { parentAgentId: caller.parentAgentId } : {}),
      taskId: caller.taskId,
      callId: call.id,
      ...(caller.step ? { step: caller.step } : {}),
      ...(call.why ? { why: call.why } : {}),
      tool: tool.name,
      // A copy: whoever holds the request (UI, listeners) cannot change what will run.
      args: copyArgs(args),
      argsHash: base.argsHash,
      risk: policy.risk,
      rule: policy.rule,
      explanation: note ? `${note} ${policy.explanation}` : policy.explanation,
      preview,
      reversible: tool.reversible === true,
      ...(tool.reversible !== true &&
      tool.changesFiles &&
      caller.checkpoint &&
      this.o.checkpointsCoverProject?.()
        ? { undoRestoresFiles: true as const }
        : {}),
      createdAt: new Date().toISOString(),
      // A plan card may grant its known steps (issue 14 §6); a tool card the scopes of its call.
      grantOptions:
        preview.kind === 'plan'
          ? planGrantOptions(preview, caller)
          : grantOptions(facts, policy.risk, caller),
      ...(fileHash !== undefined ? { preImageHash: fileHash } : {}),
      ...(call.resumedFrom
        ? resumedRequestFields(call.resumedFrom, fileHash, this.o.approvals.timeoutMs)
        : {}),
    };
    this.asked.set(request.id, { facts, policy, caller });
    // The turn's checkpoint starts while the person reads the card, so approving does not wait for it
    // (run() awaits the same checkpoint before any effect, and fails closed if it could not be taken) —
    // but after what the announcement scheduled (the UI's frame of the card): spawning git blocks the
    // event loop for 5-20 ms, which put the first card of a session that much later (profiled).
    const takeCheckpoint = tool.changesFiles ? caller.checkpoint : undefined;
    if (takeCheckpoint) setTimeout(() => takeCheckpoint(tool.name, true).catch(() => undefined), 0);
    // The accepted edit stays here, out of reach of event listeners; the broker only sees a copy.
    let accepted: Checked | undefined;
    const review = (edited: unknown): EditReview => {
      const result = this.reviewEdit(tool, edited);
      if (result.kind === 'accept') accepted = result.checked;
      return result.kind === 'accept' ? { kind: 'accept', args: copyArgs(result.checked.args) } : result;
    };
    const onAbort = () => this.broker.cancelRequest(request.id, 'The turn was cancelled.');
    caller.signal.addEventListener('abort', onAbort, { once: true });
    let outcome: BrokerOutcome;
    try {
      outcome = caller.signal.aborted
        ? { kind: 'failed', code: 'task_cancelled', reason: 'The turn was cancelled.', waitMs: 0 }
        : await this.broker.ask(request, review, () =>
            this.audit({ ...call, args }, caller, { ...base, requestId: request.id }, 'none', 'requested'),
          );
    } finally {
      caller.signal.removeEventListener('abort', onAbort);
      this.asked.delete(request.id);
    }
    if (outcome.kind === 'decided') this.heard(outcome.decision, checked, caller, accepted?.args);
    const withRequest = { ...base, call: { ...call, args }, requestId: request.id, waitMs: outcome.waitMs };
    const stop = endingWithoutRun(outcome);
    if (stop) {
      if (outcome.kind === 'decided' && outcome.decision.kind === 'reject')
        this.rememberRejection(
          caller.taskId,
          rejectionKey(tool.name, tool.guarded?.command, facts, base.argsHash),
        );
      this.auditBoth(withRequest.call, caller, withRequest, stop);
      return stop.envelope;
    }
    if (outcome.kind !== 'decided' || !RUNNING_DECISIONS.has(outcome.decision.kind))
      throw new Error(`no decision to run on (${outcome.kind})`);
    const approver = outcome.approver;
    const final = this.finalArgs(args, outcome.decision, accepted?.args);
    if (outcome.decision.kind === 'approve_all')
      this.grantAndDrain(offeredScope(request, outcome.decision.scope));
    const answer =
      outcome.decision.kind === 'answer'
        ? outcome.decision.text
        : outcome.decision.kind === 'escalation'
          ? JSON.stringify({ choice: outcome.decision.choice, instruction: outcome.decision.instruction })
          : undefined;
    // Only a person's approval of this very card lifts the read-only mounts of the protected paths it listed.
    const approvedFacts = outcome.decision.kind === 'edit' ? (accepted?.facts ?? facts) : facts;
    const byPerson =
      approver === 'human' && (outcome.decision.kind === 'approve' || outcome.decision.kind === 'edit');
    const lift = byPerson ? protectedWrites(approvedFacts) : [];
    // The same for the credential files the card named: shown to this one run instead of masked.
    const unmask = byPerson ? (approvedFacts.secretPaths ?? []) : [];
    // The token binds what the person approved: the arguments hashed when the request was made, or the accepted edit.
    const approvedHash = final.edited ? hashArgs(final.args) : base.argsHash;
    const targetHash =
      final.edited && fileHash !== undefined && accepted
        ? await editedTargetHash(facts, accepted.facts, fileHash)
        : fileHash;
    const envelope = await this.run(
      tool,
      final.args,
      caller,
      { ...withRequest, argsHash: approvedHash, ...(final.edited ? { editedArgs: final.args } : {}) },
      approver,
      {
        ...(targetHash !== undefined ? { fileHash: targetHash } : {}),
        ...(answer !== undefined ? { answer } : {}),
        ...(lift.length > 0 ? { lift } : {}),
        ...(unmask.length > 0 ? { unmask } : {}),
        seen: approvedFacts,
      },
    );
    if (envelope.status === 'error' && envelope.reason?.startsWith('file_changed') && reask < MAX_REASKS) {
      const again = this.check(tool, final.args);
      if (again.ok)
        return this.askPerson(
          again.checked,
          { ...call, args: final.args },
          caller,
          { ...base, argsHash: hashArgs(final.args) },
          reask + 1,
          'The file changed since you approved; here is the new diff.',
        );
    }
    // The model is told the person changed its call, and how, so it keeps their version next turn.
    return final.edited && outcome.decision.kind === 'edit'
      ? { ...envelope, edited: editedResult(final.args, describeChanges(args, final.args)) }
      : envelope;
  }

  private finalArgs(
    args: Record<string, unknown>,
    decision: Decision,
    acceptedEdit?: Record<string, unknown>,
  ): { args: Record<string, unknown>; edited: boolean } {
    if (decision.kind === 'edit') {
      if (!acceptedEdit) throw new Error('an edit decision without an accepted edit');
      return { args: acceptedEdit, edited: canonicalJson(acceptedEdit) !== canonicalJson(args) };
    }
    if (decision.kind === 'approve_plan') {
      const steps = decision.steps.map(String);
      const edited = canonicalJson(steps) !== canonicalJson(args.steps);
      return { args: { ...args, steps }, edited };
    }
    return { args, edited: false };
  }

  private grantAndDrain(scope: Extract<Decision, { kind: 'approve_all' }>['scope']): void {
    const grant = this.o.grants.add(scope);
    // A plan grant drains nothing before its plan is in force.
    if (!this.o.grants.planActive(grant)) return;
    this.broker.approveWhere((r) => {
      const a = this.asked.get(r.id);
      return a !== undefined && grantable(a.facts, a.policy.risk) && scopeCovers(grant, a.facts, a.caller);
    });
  }

  /** Tells the session's feedback what the person decided. Contract: never throws. */
  private heard(
    decision: Decision,
    checked: Checked,
    caller: Caller,
    accepted?: Record<string, unknown>,
  ): void {
    if (!this.o.onDecided) return;
    try {
      const edited =
        decision.kind === 'edit' && accepted && canonicalJson(accepted) !== canonicalJson(checked.args)
          ? accepted
          : undefined;
      this.o.onDecided({
        decision,
        tool: checked.tool.name,
        facts: checked.facts,
        policy: checked.policy,
        caller,
        args: checked.args,
        ...(edited ? { edited } : {}),
        summary: this.summary(checked.tool.name, checked.args),
      });
    } catch {
      // Feedback is advice: its failure must not change a decision.
    }
  }

  private reviewEdit(
    tool: AnyTool,
    edited: unknown,
  ): Exclude<EditReview, { kind: 'accept' }> | { kind: 'accept'; checked: Checked } {
    const result = this.check(tool, edited);
    if (!result.ok) return { kind: 'invalid', error: result.error };
    if (result.checked.policy.decision === 'deny')
      return {
        kind: 'blocked',
        ruleId: result.checked.policy.rule.id,
        reason: result.checked.policy.explanation,
      };
    return { kind: 'accept', checked: result.checked };
  }

  /**
   * Runs an allowed call; `base.argsHash` is the hash of the arguments that were allowed, which the token binds.
   * `checked`: facts gathered just now, for a call allowed without waiting for a person: only the decision
   * line's write (one turn of the microtask queue) or the checkpoint lies between, and the tool's own file
   * operations check what they open against these verdicts (safe-fs: a concurrent process's swap is caught
   * there), so the executor need not gather them again; after a person's decision it must.
   */
  private async run(
    tool: AnyTool,
    args: Record<string, unknown>,
    caller: Caller,
    base: RecordBase & { call: ToolCall },
    approver: Approver,
    extra: RunExtras = {},
  ): Promise<ToolResultEnvelope> {
    const { fileHash, answer, checked, lift, unmask } = extra;
    const seen = extra.seen ?? checked;
    const argsHash = base.argsHash;
    // No audit line, no execution: the decision line is written whole before any effect, or nothing runs.
    const decided = await this.auditSoon(base.call, caller, base, approver);
    if (!decided.ok) {
      const ending = auditUnavailable(decided.error, approver);
      this.audit(base.call, caller, base, approver, ending);
      return ending.envelope;
    }
    // No way back, no change: the checkpoint is taken after the decision and before any effect.
    let afterChange: (() => Promise<void>) | undefined;
    // A read-only command runs on a read-only project (read-only-run.ts): nothing for a checkpoint to hold.
    const readOnly = readOnlyRun(tool, seen, this.o.deps.sandbox, lift);
    if (tool.changesFiles && caller.checkpoint && !readOnly) {
      const failed = await caller.checkpoint(tool.name).then(
        (after) => {
          afterChange = after || undefined;
          return undefined;
        },
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      if (failed !== undefined) {
        const ending = {
          ...gateError(`checkpoint_failed: no checkpoint could be taken (${failed}); nothing ran.`),
          approver,
        };
        this.audit(base.call, caller, base, approver, ending);
        return ending.envelope;
      }
    }
    // Cancelled after the decision (approved in the same instant, or while the checkpoint was taken):
    // the turn is over, so nothing starts — an approval does not outlive its task (red-team finding).
    if (caller.signal.aborted) {
      await afterChange?.();
      const why = typeof caller.signal.reason === 'string' ? caller.signal.reason : 'The turn was cancelled.';
      const reason = `task_cancelled: ${why} (after the decision, before it ran)`;
      const ending: Ending = {
        envelope: { status: 'cancelled', by: 'user', reason, retry: false },
        outcome: 'cancelled',
        approver,
        reason,
      };
      this.audit(base.call, caller, base, approver, ending);
      return ending.envelope;
    }
    const token = this.mint.issue(
      fileHash !== undefined ? { tool: tool.name, argsHash, fileHash } : { tool: tool.name, argsHash },
    );
    const { deps } = this.o;
    const ctx: ToolContext = {
      root: deps.fence.root,
      fence: deps.fence,
      commands: deps.commands,
      sandbox: deps.sandbox,
      signal: caller.signal,
      agent: { id: caller.agentId, name: caller.agentName, taskId: caller.taskId },
    };
    if (caller.recordPreImage) ctx.recordPreImage = caller.recordPreImage;
    if (caller.agents) ctx.agents = caller.agents;
    if (answer !== undefined) ctx.answer = answer;
    if (lift && approver === 'human') ctx.liftProtected = lift;
    if (unmask && approver === 'human') ctx.unmaskCredentials = unmask;
    if (base.call.onOutput) ctx.onOutput = base.call.onOutput;
    if (approver === 'human') ctx.personApproved = true;
    if (readOnly) ctx.readOnlyProject = true;
    // The checkpoint after the call, before its result goes back: what changed in between is the call's own.
    const execution = await this.executor.run(token, tool.name, args, ctx, checked).finally(afterChange);
    if (readOnly) checkpointAheadOnce(caller.checkpoint, tool.name);
    if (seen && (tool.changesFiles || seen.kind === 'write') && execution.kind === 'ran')
      this.provenance.executed(seen, approver);
    const ending = endingOfExecution(execution, approver);
    await this.auditSoon(
      base.call,
      caller,
      execution.kind === 'ran' ? { ...base, durationMs: execution.durationMs } : base,
      approver,
      ending,
    );
    return ending.envelope;
  }

  private refuse(call: ToolCall, caller: Caller, rule: string, reason: string): ToolResultEnvelope {
    const ending: Ending = {
      envelope: { status: 'error', by: 'gate', reason, retry: true },
      outcome: 'error',
      approver: 'none',
      reason,
    };
    this.auditBoth(
      call,
      caller,
      { decision: 'deny', rule, risk: 'low', argsHash: safeHash(call.args) },
      ending,
    );
    return ending.envelope;
  }

  private rememberRejection(taskId: string, key: string): void {
    let keys = this.rejected.get(taskId);
    if (!keys) this.rejected.set(taskId, (keys = new Set()));
    keys.add(key);
  }

  /** Writes the decision line and the outcome line of a call that ends without running. */
  private auditBoth(call: ToolCall, caller: Caller, base: RecordBase, ending: Ending): void {
    this.audit(call, caller, base, ending.approver);
    this.audit(call, caller, base, ending.approver, ending);
  }

  /** `audit`, sharing a write with the lines made in the same microtask turn. Contract: never rejects. */
  private async auditSoon(
    call: ToolCall,
    caller: Caller,
    base: RecordBase,
    approver: Approver,
    stage?: Ending,
  ): Promise<AuditWrite> {
    try {
      return await this.o.audit.appendSoon(
        auditRecord(this.o.sessionId, call, caller, base, approver, stage),
      );
    } catch (err) {
      return { ok: false, error: (err as Error)?.message ?? String(err) };
    }
  }

  /** One audit line (see auditRecord). Contract: never throws; a sink that throws counts as a line not written. */
  private audit(
    call: ToolCall,
    caller: Caller,
    base: RecordBase,
    approver: Approver,
    stage?: Ending | 'requested',
  ): AuditWrite {
    try {
      return this.o.audit.append(auditRecord(this.o.sessionId, call, caller, base, approver, stage));
    } catch (err) {
      return { ok: false, error: (err as Error)?.message ?? String(err) };
    }
  }
}

/** `lift`: protected paths a person approved writing in this run (absolute, real). */
type RunExtras = {
  fileHash?: string;
  answer?: string;
  checked?: CallFacts;
  lift?: string[];
  /** Credential files a person approved reading in this run (absolute, real). */
  unmask?: string[];
  /** The facts the call was decided on, for provenance (`checked` when absent). */
  seen?: CallFacts;
};
