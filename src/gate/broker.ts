/**
 * The approval queue. Over 400 lines: every way into and out of it (a card asked, the hooks' look
 * first, an answer from elsewhere, a decision, an edit, a grant, a two-person card's first approval, a
 * failure) settles the same entries exactly once, and reads best beside the others; the pure rules it
 * applies live beside it (card-screen.ts, high-confirm.ts, two-person.ts).
 */
import type { CardAnswer } from '../hooks/permission-request';
import type { ApprovalRequest, DecidedBy, Decision, FailCode } from '../protocol';
import {
  approverOf,
  type CardScreen,
  hooksFor,
  nobodyAfterScreen,
  screenNote,
  settledAnswer,
  startScreen,
} from './card-screen';
import { HIGH_UNCONFIRMED, needsSecondConfirmation } from './high-confirm';
import { twoPersonDecision, type Who } from './two-person';

/**
 * What came of a decision: `waiting` — it counted as the first approval of a card that needs two
 * people, which waits for the second; `code` names why one was refused where it has its own
 * (`same_identity`, `self_approval`).
 */
export type DecideResult = { ok: true; waiting?: true } | { ok: false; error: string; code?: string };

export type { CardScreen } from './card-screen';

/** Whether the queued request was recorded (the gate's audit `requested` line). */
export type QueuedRecord = { ok: true } | { ok: false; error: string };

/** How a request left the queue. */
export type BrokerOutcome = Settlement & { waitMs: number };

type Settlement =
  /**
   * `by`: who gave a person's decision and through which channel (absent for a grant); on a card that
   * needed two people, the first approval, and `secondBy` the second. `hook:<name>`: a
   * PermissionRequest hook answered where a person could.
   */
  | {
      kind: 'decided';
      decision: Decision;
      approver: 'human' | 'grant' | `hook:${string}`;
      by?: DecidedBy;
      secondBy?: DecidedBy;
    }
  | { kind: 'blocked'; ruleId: string; reason: string }
  | { kind: 'failed'; code: FailCode; reason: string };

/** The gate's review of edited arguments: run the schema, the guards and the policy again. */
export type EditReview =
  | { kind: 'accept'; args: unknown }
  | { kind: 'invalid'; error: string }
  | { kind: 'blocked'; ruleId: string; reason: string };

export type BrokerEvent =
  | { type: 'requested'; request: ApprovalRequest }
  | { type: 'updated'; request: ApprovalRequest }
  | { type: 'resolved'; request: ApprovalRequest; outcome: BrokerOutcome }
  | { type: 'invalid_input'; requestId: string; count: number; limit: number };

/**
 * An answer given elsewhere for a request nobody is there to ask (answers/inbox.ts): the broker hands
 * it to `decide` like a person's, and tells `done` what came of it.
 */
export type UnattendedAnswer = {
  decision: Decision;
  by: DecidedBy;
  done(result: DecideResult): void;
};

export type BrokerOptions = {
  timeoutMs: number;
  /** The hooks that may answer a card where a person could, before anyone is shown it (src/hooks). */
  screen?: CardScreen;
  /**
   * With no approver attached: the answers already given for this request elsewhere, in the order
   * they apply (a two-person card may take two).
   */
  answerFor?: (request: ApprovalRequest) => readonly UnattendedAnswer[];
  /** The key id of this user's own answer key: the requester's identity on a two-person card. */
  requesterKeyId?: () => string | undefined;
  invalidLimit?: number;
  now?: () => number;
  onEvent: (event: BrokerEvent) => void;
};

const MAX_TIMER_MS = 2_147_483_647;

type Entry = {
  request: ApprovalRequest;
  settle: (outcome: BrokerOutcome) => void;
  reviewEdit: (args: unknown) => EditReview;
  timer: NodeJS.Timeout | undefined;
  invalid: number;
  started: number;
  /** The person's reviewed edit, kept apart from the card everyone holds (see stageEdit). */
  staged?: unknown;
  /** Records the first approval of a two-person card (the audit's `partial` line). */
  onPartial?: (request: ApprovalRequest, by: DecidedBy) => QueuedRecord;
  /** The hooks are looking at it: not announced yet, nor listed as pending; aborted when it ends. */
  screening?: AbortController;
};

/**
 * The approval queue: first in, first out for display, but any pending request may be decided.
 * Contract: every request resolves exactly once; with no approver attached, or input closed, it
 * fails at once with its own code — it never waits forever and never resolves as approved by default.
 */
export class ApprovalBroker {
  private readonly queue = new Map<string, Entry>();
  private approvers = 0;
  private inputClosed = false;
  private readonly now: () => number;
  private readonly invalidLimit: number;

  constructor(private readonly options: BrokerOptions) {
    this.now = options.now ?? Date.now;
    this.invalidLimit = options.invalidLimit ?? 5;
  }

  /** A UI (or a scripted approver) is listening; returns a detach function. */
  attachApprover(): () => void {
    this.approvers += 1;
    this.inputClosed = false;
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.approvers -= 1;
      if (this.approvers === 0) this.failWhere(() => true, 'no_approver', 'The approver went away.');
    };
  }

  /** The person's input is gone (stdin closed): everything pending, and everything later, fails closed. */
  closeInput(reason = 'Input was closed before a decision.'): void {
    this.inputClosed = true;
    this.failWhere(() => true, 'input_closed', reason);
  }

  /** The requests waiting for a person (not those the hooks are still looking at), in arrival order. */
  pending(): ApprovalRequest[] {
    return [...this.queue.values()].filter((e) => e.screening === undefined).map((e) => e.request);
  }

  /**
   * Queues a request until a decision, the timeout or a failure. `onQueued` records it (the audit's
   * `requested` line) once it is really queued, before anyone is told; if that fails the request
   * fails at once with `audit_unavailable` — nobody is asked for a call that could not run anyway.
   * Contract: never rejects.
   */
  ask(
    request: ApprovalRequest,
    reviewEdit: (args: unknown) => EditReview,
    onQueued?: (request: ApprovalRequest) => QueuedRecord,
    onPartial?: (request: ApprovalRequest, by: DecidedBy) => QueuedRecord,
  ): Promise<BrokerOutcome> {
    if (this.inputClosed)
      return Promise.resolve({
        kind: 'failed',
        code: 'input_closed',
        reason: 'Input is closed; nobody can approve.',
        waitMs: 0,
      });
    const hooks = hooksFor(this.options.screen, request);
    // An answer a person gave already (`warden approve`) comes before any hook's.
    const unattended = this.approvers === 0 || hooks ? this.answerFor(request) : [];
    const screening = unattended.length > 0 || !hooks ? undefined : startScreen(hooks);
    if (this.approvers === 0 && unattended.length === 0 && !screening)
      return Promise.resolve({
        kind: 'failed',
        code: 'no_approver',
        reason: 'No one is there to approve (headless run).',
        waitMs: 0,
      });
    return new Promise((resolve) => {
      const started = this.now();
      const { timeoutMs } = this.options;
      // setTimeout fires at once for delays past 2^31-1 ms; an infinite timeout means no timer at all.
      const finite = Number.isFinite(timeoutMs);
      // A request offered again after a restart keeps its first deadline (approvalTimeoutSec counts from then).
      const resumed = request.resumedFrom !== undefined && request.expiresAt !== undefined;
      const delay = resumed ? Math.max(0, Date.parse(request.expiresAt ?? '') - started) : timeoutMs;
      const timer =
        finite || resumed
          ? setTimeout(
              () =>
                this.finish(request.id, {
                  kind: 'failed',
                  code: resumed ? 'expired' : 'timeout',
                  reason: resumed
                    ? `No decision before it expired (${request.expiresAt}; approvalTimeoutSec counts from when it was first asked).`
                    : `No decision within ${Math.round(timeoutMs / 1000)} s.`,
                }),
              Math.min(Number.isFinite(delay) ? delay : 0, MAX_TIMER_MS),
            )
          : undefined;
      timer?.unref?.();
      const queued: ApprovalRequest =
        request.expiresAt || !finite
          ? request
          : { ...request, expiresAt: new Date(started + timeoutMs).toISOString() };
      this.queue.set(request.id, {
        request: queued,
        settle: resolve,
        reviewEdit,
        timer,
        invalid: 0,
        started,
        ...(onPartial ? { onPartial } : {}),
        ...(screening ? { screening: screening.abort } : {}),
      });
      const recorded = this.record(onQueued, queued);
      if (!recorded.ok)
        return this.finish(request.id, {
          kind: 'failed',
          code: 'audit_unavailable',
          reason: `The request could not be recorded in the audit log (${recorded.error}).`,
        });
      if (screening) void this.afterScreen(request.id, screening.answer);
      else this.announce(request.id, unattended);
    });
  }

  /** Tells everyone the request waits; the answers given elsewhere then decide it. */
  private announce(id: string, unattended: readonly UnattendedAnswer[] = []): void {
    const entry = this.queue.get(id);
    if (!entry) return;
    delete entry.screening;
    // Nobody saw a request whose announcement failed: it must not wait for a decision that cannot come.
    if (!this.emit({ type: 'requested', request: entry.request }))
      return this.finish(id, {
        kind: 'failed',
        code: 'gate_error',
        reason: 'Announcing the request failed.',
      });
    if (unattended.length > 0) this.decideUnattended(id, unattended);
  }

  /**
   * The hooks' answer decides like a person's (the same checks: expiry, the high-risk confirmation);
   * otherwise the card is shown to the person — or, with nobody there, fails closed.
   */
  private async afterScreen(id: string, pending: Promise<CardAnswer>): Promise<void> {
    const answer = await settledAnswer(pending);
    const entry = this.queue.get(id);
    if (!entry) return;
    let refused: string | undefined;
    if (answer.kind === 'decided') {
      const result = this.decide(id, answer.decision, answer.by);
      if (result.ok || !this.queue.has(id)) return;
      refused = result.error;
    }
    const note = screenNote(answer, refused);
    if (note) entry.request = { ...entry.request, explanation: `${entry.request.explanation} ${note}` };
    if (this.approvers > 0) return this.announce(id);
    this.finish(id, { kind: 'failed', ...nobodyAfterScreen(answer, note) });
  }

  /**
   * The answers given elsewhere decide like a person's, in order. With a person there (they were looked
   * for ahead of a hook) a card still waiting is theirs; with nobody, one that no answer settled (one did
   * not apply, or a two-person card got only its first approval) fails: nobody is left to ask.
   */
  private decideUnattended(id: string, answers: readonly UnattendedAnswer[]): void {
    let last: DecideResult = { ok: true };
    for (const answer of answers) {
      if (!this.queue.has(id)) return;
      last = this.decide(id, answer.decision, answer.by);
      answer.done(last);
    }
    if (!this.queue.has(id) || this.approvers > 0) return;
    this.finish(id, {
      kind: 'failed',
      code: 'no_approver',
      reason: last.ok
        ? 'No one is there to approve, and the card needs a second person: one approval was given elsewhere.'
        : `No one is there to approve, and the answer given elsewhere did not apply: ${last.error}`,
    });
  }

  private answerFor(request: ApprovalRequest): readonly UnattendedAnswer[] {
    try {
      return this.options.answerFor?.(request) ?? [];
    } catch {
      return [];
    }
  }

  /**
   * Applies a person's decision (`by`: who, through which channel). Returns an error for an unknown
   * request, a refused edit or an approval that does not count; `waiting` for the first approval of a
   * card that needs two people.
   */
  decide(id: string, decision: Decision, by?: DecidedBy): DecideResult {
    const entry = this.queue.get(id);
    if (!entry) return { ok: false, error: `No pending request ${id}.` };
    if (entry.request.expiresAt && Date.parse(entry.request.expiresAt) <= this.now()) {
      this.finish(id, {
        kind: 'failed',
        code: 'expired',
        reason: 'The request expired before the decision arrived.',
      });
      return { ok: false, error: 'The request had expired.' };
    }
    // The second confirmation of a high-risk call, whatever the channel (the drawer, the CLI, a script).
    if (needsSecondConfirmation(entry.request, decision)) return { ok: false, error: HIGH_UNCONFIRMED };
    let who: Who = by ? { by } : {};
    if (entry.request.twoPerson) {
      const step = this.twoPersonStep(entry, decision, by);
      if (step.kind === 'settled') return step.result;
      who = step.who;
    }
    entry.invalid = 0;
    if (decision.kind === 'edit') return this.applyEdit(entry, decision.args, who);
    // A staged edit (the person reviewed their own version): their approve runs that version, checked again.
    if (decision.kind === 'approve' && entry.request.edited) return this.applyEdit(entry, entry.staged, who);
    if (decision.kind === 'cancel_task') {
      this.cancelTask(entry.request.taskId, 'The person cancelled the task.');
      return { ok: true };
    }
    this.finish(id, { kind: 'decided', decision, approver: approverOf(by), ...who });
    return { ok: true };
  }

  /**
   * A decision on a card that needs two people (two-person.ts): the first approval is recorded (audited)
   * and the card waits; the second, from another identity and not the requester's, goes on with both.
   */
  private twoPersonStep(
    entry: Entry,
    decision: Decision,
    by: DecidedBy | undefined,
  ): { kind: 'settled'; result: DecideResult } | { kind: 'go'; who: Who } {
    const step = twoPersonDecision(entry.request, decision, by, this.options.requesterKeyId?.());
    if (step.kind !== 'first') return step;
    const { onPartial } = entry;
    const recorded = this.record(onPartial ? (r) => onPartial(r, step.first) : undefined, entry.request);
    if (!recorded.ok) {
      const error = `The approval could not be recorded in the audit log (${recorded.error}); it does not count.`;
      return { kind: 'settled', result: { ok: false, error, code: 'audit_unavailable' } };
    }
    entry.invalid = 0;
    const revision = (entry.request.revision ?? 0) + 1;
    entry.request = { ...entry.request, twoPerson: { approvedBy: [step.first] }, revision };
    this.emit({ type: 'updated', request: entry.request });
    return { kind: 'settled', result: { ok: true, waiting: true } };
  }

  /** Resolves every pending request the predicate picks as approved by a grant. */
  approveWhere(predicate: (request: ApprovalRequest) => boolean): void {
    for (const entry of [...this.queue.values()]) {
      // A grant for the model's call must not settle a card showing the person's edit (it would run the model's).
      if (entry.request.edited) continue;
      if (predicate(entry.request))
        this.finish(entry.request.id, { kind: 'decided', decision: { kind: 'approve' }, approver: 'grant' });
    }
  }

  /** The UI saw a key it could not use on this request; the fifth in a row rejects it. */
  reportInvalidInput(id: string): void {
    const entry = this.queue.get(id);
    if (!entry) return;
    entry.invalid += 1;
    this.emit({ type: 'invalid_input', requestId: id, count: entry.invalid, limit: this.invalidLimit });
    if (entry.invalid >= this.invalidLimit)
      this.finish(id, {
        kind: 'failed',
        code: 'invalid_input',
        reason: `${this.invalidLimit} invalid inputs in a row.`,
      });
  }

  cancelTask(taskId: string, reason = 'The task was cancelled.'): void {
    this.failWhere((r) => r.taskId === taskId, 'task_cancelled', reason);
  }

  cancelRequest(id: string, reason = 'The task was cancelled.'): void {
    this.finish(id, { kind: 'failed', code: 'task_cancelled', reason });
  }

  failWhere(predicate: (request: ApprovalRequest) => boolean, code: FailCode, reason: string): void {
    for (const entry of [...this.queue.values()])
      if (predicate(entry.request)) this.finish(entry.request.id, { kind: 'failed', code, reason });
  }

  private applyEdit(entry: Entry, args: unknown, who: Who): DecideResult {
    let review: EditReview;
    try {
      review = entry.reviewEdit(args);
    } catch (err) {
      this.finish(entry.request.id, {
        kind: 'failed',
        code: 'gate_error',
        reason: `Reviewing the edit failed: ${(err as Error).message}`,
      });
      return { ok: false, error: 'The gate failed while reviewing the edit.' };
    }
    if (review.kind === 'invalid') {
      this.refuseEdit(entry.request.id, review.error);
      return { ok: false, error: review.error };
    }
    if (review.kind === 'blocked') {
      this.finish(entry.request.id, { kind: 'blocked', ruleId: review.ruleId, reason: review.reason });
      return { ok: true };
    }
    this.finish(entry.request.id, {
      kind: 'decided',
      decision: { kind: 'edit', args: review.args },
      approver: approverOf(who.by),
      ...who,
    });
    return { ok: true };
  }

  /** A person's edit was refused: the request stays pending and says why (`editError`, a new `revision`). */
  refuseEdit(id: string, error: string): void {
    const entry = this.queue.get(id);
    if (!entry) return;
    entry.request = { ...entry.request, editError: error, revision: (entry.request.revision ?? 0) + 1 };
    this.emit({ type: 'updated', request: entry.request });
  }

  /**
   * Shows a person's accepted edit on the pending card: the edited arguments, hash and preview, and what
   * differs from the model's call. No approve-all is offered for it; the person's next approve runs it.
   */
  stageEdit(
    id: string,
    edit: Required<Pick<ApprovalRequest, 'args' | 'argsHash' | 'preview' | 'edited'>>,
  ): void {
    const entry = this.queue.get(id);
    if (!entry) return;
    const { editError: _refused, ...rest } = entry.request;
    // The card's copy is read (and could be changed) by the UI and listeners; the approve runs this one,
    // as the person reviewed it (a change made to the card's arguments after review ran — red-team finding).
    entry.staged = structuredClone(edit.args);
    entry.request = { ...rest, ...edit, grantOptions: [], revision: (rest.revision ?? 0) + 1 };
    // An approval given to the call before the edit is none for the edited call.
    if (rest.twoPerson) entry.request.twoPerson = { approvedBy: [] };
    this.emit({ type: 'updated', request: entry.request });
  }

  private finish(id: string, outcome: Settlement): void {
    const entry = this.queue.get(id);
    if (!entry) return;
    this.queue.delete(id);
    clearTimeout(entry.timer);
    entry.screening?.abort();
    const full: BrokerOutcome = { ...outcome, waitMs: this.now() - entry.started };
    entry.settle(full);
    this.emit({ type: 'resolved', request: entry.request, outcome: full });
  }

  private record(
    onQueued: ((request: ApprovalRequest) => QueuedRecord) | undefined,
    request: ApprovalRequest,
  ): QueuedRecord {
    try {
      return onQueued ? onQueued(request) : { ok: true };
    } catch (err) {
      return { ok: false, error: (err as Error)?.message ?? String(err) };
    }
  }

  /** Tells the listener; a listener that throws must not leave requests half-settled. Returns false if it threw. */
  private emit(event: BrokerEvent): boolean {
    try {
      this.options.onEvent(event);
      return true;
    } catch {
      return false;
    }
  }
}
