/**
 * The one gate every tool call passes. `pass` reads as the sequence, top-down:
 *   1 guards    the tool exists and is offered to this caller, the arguments fit its schema (parsed
 *               once), no internal argument; the hard guards — path fence, command guard, SSRF, size
 *               caps — deny, and no person can override them (policy/facts)
 *   2 policy    the rules, deny → ask → allow, with the mode and the risk (policy/resolve); then the
 *               PreToolUse hooks, which may only tighten it (hooks/pre-tool-use)
 *   3 grants    a call this task had rejected is rejected again; a session grant allows (grants)
 *   4 person    whatever still asks goes on a card and waits for a decision (askPerson, broker); a
 *               PermissionRequest hook may answer it first, where a person could (hooks/permission-request)
 *   5 token     a one-time token bound to the hash of the approved arguments (tokens)
 *   6 re-check  the guards again at execution, the pre-image of a write (executor)
 *   7 run       the checkpoint before any effect, then the tool (run-call.ts)
 *   8 audit     a decision line before any effect, an outcome line after it (gate-audit.ts)
 * This file is that orchestration and the gate's public face; each step lives in its own module.
 */
import type { ToolSpec } from '../llm/types';
import type { ApprovalRequest, DecidedBy, Decision, ToolResultEnvelope } from '../protocol';
import { gatherFacts } from '../policy/facts';
import { resolvePolicy } from '../policy/resolve';
import { parseToolArgs } from '../tools/parse-args';
import type { AnyTool } from '../tools/types';
import { approvedRun, cardFor, unasked } from './approval-request';
import { deciders, type RecordBase } from './audit-record';
import { ApprovalBroker, type BrokerOutcome, type DecideResult, type EditReview } from './broker';
import { decisionError } from './decision-check';
import { type CheckCall, reviewEdit, stageEdit } from './edit-stage';
import { describeChanges, editedResult } from './edited-call';
import { blocked, endingWithoutRun, gateError, repeatRejected } from './envelopes';
import { GuardedExecutor } from './executor';
import { GateAudit } from './gate-audit';
import { admitCall } from './call-guards';
import {
  copyArgs,
  denialBy,
  editedTargetHash,
  grantAndDrain,
  hookedCall,
  offeredScope,
  recordBase,
  ruleApprover,
  safeHash,
  tellDecided,
} from './gate-steps';
import type { Asked, Caller, Checked, CloseCode, GateOptions, ToolCall } from './gate-types';
import { commandGuardReady, loadGrammarWhileReading } from './command-guard-wait';
import type { GrantCaller } from './grants';
import { hashArgs } from './hash';
import { ParsedAhead } from './parsed-ahead';
import { explainCommand, type PolicyCheck } from './policy-check';
import { Provenance } from './provenance';
import { RejectionMemory, rejectionKey, similarCallKey } from './rejection-key';
import { resumeCheck } from './resume-check';
import { type RunPorts, runCall } from './run-call';
import { toolSpecs } from './specs';
import { TokenMint } from './tokens';
import { personOnly } from './two-person';

export type {
  ApprovalEvent,
  ApprovalOptions,
  AuditSink,
  Caller,
  CloseCode,
  DecidedCall,
  GateOptions,
  ToolCall,
} from './gate-types';

const MAX_REASKS = 2;

export class Gate {
  private readonly tools: Map<string, AnyTool>;
  private readonly rejected = new RejectionMemory();
  private readonly asked = new Map<string, Asked>();
  /** A model's raw arguments as the summary parsed them, taken once by that call's check. */
  private readonly parsedAhead = new ParsedAhead();
  /** The `ready` hook has resolved: calls no longer wait for it. */
  private isReady: boolean;
  private readonly broker: ApprovalBroker;
  private readonly log: GateAudit;
  private readonly ports: RunPorts;
  /** What agents changed that the person has not reviewed: shown on the cards of commands that run project code. */
  readonly provenance = new Provenance();

  /** `broker`: only tests pass one (to drive the queue directly); the gate otherwise builds it from `approvals`. */
  constructor(
    private readonly o: GateOptions,
    broker?: ApprovalBroker,
  ) {
    this.broker = broker ?? new ApprovalBroker(o.approvals);
    this.isReady = o.ready === undefined;
    this.tools = new Map(o.tools.map((t) => [t.name, t]));
    this.log = new GateAudit(o.audit, o.sessionId);
    const mint = new TokenMint();
    const executor = new GuardedExecutor(this.tools, mint, o.deps);
    this.ports = { audit: this.log, mint, executor, deps: o.deps, provenance: this.provenance };
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

  /** The arguments' hash the gate records for a call of `name` (its schema applied), or undefined if they do not parse. */
  argsHashOf(name: string, raw: unknown): string | undefined {
    const tool = this.tools.get(name);
    const parsed = tool ? parseToolArgs(tool, raw) : undefined;
    return parsed?.ok ? hashArgs(parsed.args) : undefined;
  }

  /** One line for a call's tool card (parsed once with the call when `args` is the model's raw JSON). Never throws. */
  summary(name: string, args: unknown): string {
    return this.parsedAhead.summary(this.tools.get(name), args);
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
      await commandGuardReady(this.o, this.tools.get(call.tool), (t) => this.parsedAhead.peek(t, call.args));
      return await this.pass(call, caller);
    } catch (err) {
      const ending = gateError(`gate_error: ${(err as Error).message}`);
      const base: RecordBase = {
        decision: 'deny',
        rule: 'gate-error',
        risk: 'high',
        argsHash: safeHash(call.args),
      };
      try {
        this.log.both(call, caller, base, ending);
      } catch {
        // The audit sink failed as well (its contract says it never throws); the model still gets the error.
      }
      return ending.envelope;
    }
  }

  /** /policy test: what the gate would decide for `command` now; nothing runs (policy-check.ts). */
  explainCommand(command: string, caller: GrantCaller, held?: number): Promise<PolicyCheck> {
    return explainCommand([...this.tools.values()], command, {
      ...this.o,
      policy: this.o.policy(),
      caller,
      held,
    });
  }

  /** A person's decision (`by`: who, which channel); a high-risk approve needs its confirmation, a two-person card two approvals (broker). */
  decide(id: string, decision: Decision, by?: DecidedBy): DecideResult {
    const error = decisionError(id, decision, () => this.broker.pending(), this.tools);
    if (error !== undefined) return { ok: false, error };
    if (decision.kind === 'edit' && decision.review)
      return stageEdit(
        this.broker,
        this.tools,
        this.check,
        this.o.defaultCommandTimeoutMs ?? 60_000,
        id,
        decision.args,
      );
    return this.broker.decide(id, decision, by);
  }

  /** The repeat-rejection key of a call ("the same call" for the gate), or undefined when its arguments do not parse. Never throws. */
  similarKey(name: string, raw: unknown): string | undefined {
    return similarCallKey(this.tools.get(name), raw, this.check);
  }

  /** Audits a task's cancellation by the person (one outcome line, approver `human`). Contract: never throws. */
  recordCancel(task: { agentId: string; agentName: string; taskId: string }, reason: string): void {
    this.log.cancelled(task, reason);
  }

  /** Schema (the one parse of the arguments), facts (the hard guards' input) and policy, for one call. */
  private readonly check: CheckCall = (tool, raw) => {
    const parsed = this.parsedAhead.take(tool, raw);
    if (!parsed.ok) return parsed;
    const args = parsed.args as Record<string, unknown>;
    const facts = gatherFacts(tool, args, this.o.deps);
    const context = this.o.policy();
    return { ok: true, checked: { tool, args, facts, policy: resolvePolicy(facts, context), context } };
  };

  /** Steps 1–3, then 4 or 7. Not `async`: one promise less on the hot path; `intercept` awaits it inside its try. */
  private pass(call: ToolCall, caller: Caller): ToolResultEnvelope | Promise<ToolResultEnvelope> {
    // 1 guards: what the gate cannot read as a call is refused before any policy.
    const admitted = admitCall(this.tools, call, caller, this.check);
    if (!admitted.ok) return this.log.refuse(call, caller, admitted.rule, admitted.reason);
    // 2 policy: the hard guards' denials arrive here as the policy's deny, which nobody overrides.
    const { args, policy } = admitted.checked;
    const argsHash = hashArgs(args);
    // Offered again after a restart: the same arguments, not expired since first asked — or nothing runs.
    const stale =
      policy.decision !== 'deny' &&
      call.resumedFrom &&
      resumeCheck(call.resumedFrom, argsHash, this.o.approvals.timeoutMs, Date.now());
    if (stale) {
      this.log.both({ ...call, args }, caller, recordBase(policy, argsHash, call), stale);
      return stale.envelope;
    }
    // The PreToolUse hooks may tighten the verdict (deny, or ask where it allowed), never loosen it.
    const hooked = hookedCall(call, caller, args, argsHash);
    const tightened = hooked && this.o.preToolUse?.(hooked, policy);
    if (!tightened) return this.judged(admitted.checked, call, caller, argsHash);
    return tightened.then((p) => this.judged({ ...admitted.checked, policy: p }, call, caller, argsHash));
  }

  /** Steps 2–4 on the verdict as it stands: refused, run, rejected again, granted, or a card. */
  private judged(
    checked: Checked,
    call: ToolCall,
    caller: Caller,
    argsHash: string,
  ): ToolResultEnvelope | Promise<ToolResultEnvelope> {
    const { tool, args, facts, policy } = checked;
    const base = recordBase(policy, argsHash, call);
    const parsedCall = { ...call, args };
    if (policy.decision === 'deny') {
      const ending = blocked(policy.rule.id, policy.explanation, denialBy(policy), ruleApprover(policy));
      this.log.both(parsedCall, caller, base, ending);
      return ending.envelope;
    }
    // Allowed without a wait: the facts just gathered are the execution-time check (run-call.ts).
    // A person's own `!command` is their decision: what would ask runs as theirs (never what is denied).
    if (policy.decision === 'allow' || caller.origin === 'person') {
      const approver = caller.origin === 'person' ? 'human' : ruleApprover(policy);
      return runCall(this.ports, tool, args, caller, { ...base, call: parsedCall }, approver, unasked(facts));
    }
    // 3 grants: a repeat of what the person rejected in this task is rejected without asking again.
    if (this.rejected.has(caller.taskId, rejectionKey(tool.name, tool.guarded?.command, facts, argsHash))) {
      const ending = repeatRejected();
      this.log.both(parsedCall, caller, base, ending);
      return ending.envelope;
    }
    // A hook that asks, a managed ask, or a call that needs two people reaches a person on its own
    // card: no grant answers for them.
    if (
      policy.rule.source !== 'hook' &&
      !this.personOnly(policy, tool.name) &&
      this.o.grants.match(facts, policy.risk, caller)
    )
      return runCall(this.ports, tool, args, caller, { ...base, call: parsedCall }, 'grant', unasked(facts));
    // 4 person, then 5–8 in run-call.ts.
    return this.askPerson(checked, call, caller, base);
  }

  /** Step 4: the card, the wait for a decision, and the run of what the person approved (re-asked if the file moved). */
  private async askPerson(
    checked: Checked,
    call: ToolCall,
    caller: Caller,
    base: RecordBase,
    reask = 0,
    note?: string,
  ): Promise<ToolResultEnvelope> {
    const { tool, args, facts, policy } = checked;
    const card = await cardFor(checked, call, caller, base, note, this.o, this.provenance);
    // An edit that cannot apply to the file as it is: the model learns why; nobody is asked to approve it.
    if (!card.ok) return this.log.refuse({ ...call, args }, caller, 'edit-not-applicable', card.invalid);
    const { request, fileHash } = card;
    this.asked.set(request.id, { facts, policy, caller });
    // The turn's checkpoint starts while the person reads the card, so approving does not wait for it
    // (the run awaits the same checkpoint before any effect, and fails closed if it could not be taken) —
    // but after what the announcement scheduled (the UI's frame of the card): spawning git blocks the
    // event loop for a few milliseconds, which would put the card that much later.
    const takeCheckpoint = tool.changesFiles ? caller.checkpoint : undefined;
    if (takeCheckpoint) setTimeout(() => takeCheckpoint(tool.name, true).catch(() => undefined), 0);
    const grammarWhileReading = loadGrammarWhileReading(this.o, tool);
    // The accepted edit stays here, out of reach of event listeners; the broker only sees a copy.
    let accepted: Checked | undefined;
    const review = (edited: unknown): EditReview => {
      const result = reviewEdit(this.check, tool, edited);
      if (result.kind === 'accept') accepted = result.checked;
      return result.kind === 'accept' ? { kind: 'accept', args: copyArgs(result.checked.args) } : result;
    };
    const onAbort = () => this.broker.cancelRequest(request.id, 'The turn was cancelled.');
    caller.signal.addEventListener('abort', onAbort, { once: true });
    let outcome: BrokerOutcome;
    try {
      outcome = caller.signal.aborted
        ? { kind: 'failed', code: 'task_cancelled', reason: 'The turn was cancelled.', waitMs: 0 }
        : await this.broker.ask(
            request,
            review,
            () => this.log.requested({ ...call, args }, caller, base, request),
            (_, by) => this.log.requested({ ...call, args }, caller, base, request, by),
          );
    } finally {
      clearTimeout(grammarWhileReading);
      caller.signal.removeEventListener('abort', onAbort);
      this.asked.delete(request.id);
    }
    tellDecided(this.o.onDecided, outcome, checked, caller, accepted?.args);
    const withRequest = { ...base, call: { ...call, args }, requestId: request.id, ...deciders(outcome) };
    const stop = endingWithoutRun(outcome);
    if (stop) {
      if (outcome.kind === 'decided' && outcome.decision.kind === 'reject')
        this.rejected.remember(
          caller.taskId,
          rejectionKey(tool.name, tool.guarded?.command, facts, base.argsHash),
        );
      this.log.both(withRequest.call, caller, withRequest, stop);
      return stop.envelope;
    }
    // 5–8: the token binds what the person approved (the accepted edit, the plan's steps, or the call).
    const approved = approvedRun(outcome, checked, accepted, base.argsHash);
    if (approved.decision.kind === 'approve_all')
      grantAndDrain(
        this.o.grants,
        this.broker,
        this.asked,
        offeredScope(request, approved.decision.scope),
        (p, t) => this.personOnly(p, t),
      );
    const targetHash =
      approved.edited && fileHash !== undefined && accepted
        ? await editedTargetHash(facts, accepted.facts, fileHash)
        : fileHash;
    const edit = approved.edited ? { editedArgs: approved.args } : {};
    const envelope = await runCall(
      this.ports,
      tool,
      approved.args,
      caller,
      { ...withRequest, argsHash: approved.argsHash, ...edit },
      approved.approver,
      { ...(targetHash !== undefined ? { fileHash: targetHash } : {}), ...approved.extras },
    );
    if (envelope.status === 'error' && envelope.reason?.startsWith('file_changed') && reask < MAX_REASKS) {
      const again = this.check(tool, approved.args);
      if (again.ok) {
        const rebased = { ...base, argsHash: hashArgs(approved.args) };
        const why = 'The file changed since you approved; here is the new diff.';
        return this.askPerson(
          again.checked,
          { ...call, args: approved.args },
          caller,
          rebased,
          reask + 1,
          why,
        );
      }
    }
    // The model is told the person changed its call, and how, so it keeps their version next turn.
    return approved.edited && approved.decision.kind === 'edit'
      ? { ...envelope, edited: editedResult(approved.args, describeChanges(args, approved.args)) }
      : envelope;
  }

  private personOnly(policy: Checked['policy'], tool: string): boolean {
    return personOnly(policy, tool, this.o.twoPerson?.());
  }
}
