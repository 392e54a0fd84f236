import type { Escalation, EscalationTrigger, ToolResultEnvelope } from '../protocol';
import type { EscalationAnswer } from '../tools/interact/escalate';

/** When the loop stops an agent and asks the person: failed results in a row, rejections of similar calls. */
export type EscalationThresholds = { failures: number; rejections: number };

export const DEFAULT_ESCALATION: EscalationThresholds = { failures: 3, rejections: 2 };

/** Calls kept for the card's "what it tried". */
const TRIED = 5;
const SHORT = 160;

const short = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SHORT ? `${line.slice(0, SHORT - 1)}…` : line;
};

/**
 * The escalate tool's arguments for a card: its schema takes "call → result" strings (small in every
 * request), and its preview splits them back (src/tools/interact/escalate.ts).
 */
export function escalateArgs(card: Escalation): Record<string, unknown> {
  return { ...card, tried: card.tried.map((t) => `${t.call} → ${t.result}`) };
}

/** The person's answer in an escalate call's result (`data.escalation`); undefined for anything else. */
export function escalationAnswerOf(data: unknown): EscalationAnswer | undefined {
  const d = data as { escalation?: EscalationAnswer } | undefined;
  const choice = d?.escalation?.choice;
  return choice === 'retry' || choice === 'take_over' ? d?.escalation : undefined;
}

/** Gate failures that say nobody decided (nobody there, input gone, the log down): not the agent failing its step. */
const NOBODY_DECIDED = /^(no_approver|input_closed|expired|invalid_input|audit_unavailable|hook_failed)\b/;

/**
 * Whether a result is a failure: an error, a block, or a command that ran and exited non-zero
 * (execute_command reports exit codes as data, not as errors). A call nobody could decide on
 * (headless, input closed) is not the agent failing: it does not count.
 */
export function isFailure(result: ToolResultEnvelope): boolean {
  if (result.status === 'error' && result.by === 'gate' && NOBODY_DECIDED.test(result.reason ?? ''))
    return false;
  if (result.status === 'error' || result.status === 'blocked') return true;
  const exit = (result.data as { exitCode?: unknown } | undefined)?.exitCode;
  return result.status === 'executed' && typeof exit === 'number' && exit !== 0;
}

/** One call of a step as the watch sees it: its line, its result, the gate's "same call" key. */
export type Observed = { line: string; result: ToolResultEnvelope; similarKey?: string | undefined };

/**
 * The hard rule that decides when an agent must stop and escalate — the loop's, not the model's.
 * Feed it each step's results in order; it trips on `failures` failed steps in a row (a step fails
 * when a call of it failed and none succeeded: several calls of one answer are one attempt), or
 * `rejections` rejections of calls with the same rejection key (the gate's notion of "the same
 * call"). Contract: pure bookkeeping; never throws.
 */
export class FailureWatch {
  private streak = 0;
  private readonly rejected = new Map<string, number>();
  private readonly recent: { call: string; result: string }[] = [];

  constructor(private readonly limits: EscalationThresholds) {}

  /** Records one step's results; returns the trigger when a threshold is reached. */
  observeStep(calls: readonly Observed[]): EscalationTrigger | undefined {
    let failed = false;
    let succeeded = false;
    let trigger: EscalationTrigger | undefined;
    // Only the last TRIED calls are kept for the card: a burst of thousands shortens those few, not
    // every result (each a whole file's text, whitespace collapsed only to be thrown away).
    for (const { line, result } of calls.slice(-TRIED)) {
      this.recent.push({ call: short(line), result: short(resultText(result)) });
      if (this.recent.length > TRIED) this.recent.shift();
    }
    for (const { line, result, similarKey } of calls) {
      if (result.status === 'rejected') {
        const key = similarKey ?? line;
        const count = (this.rejected.get(key) ?? 0) + 1;
        this.rejected.set(key, count);
        if (count >= this.limits.rejections) trigger ??= 'rejections';
      } else if (isFailure(result)) failed = true;
      else if (result.status === 'executed') succeeded = true;
    }
    // Only skips, cancels or rejections: the step neither failed nor succeeded.
    if (succeeded) this.streak = 0;
    else if (failed) this.streak += 1;
    if (this.streak >= this.limits.failures) trigger ??= 'failures';
    return trigger;
  }

  /** After the person answered: counting starts again. */
  reset(): void {
    this.streak = 0;
    this.rejected.clear();
  }

  /** The card's content for `trigger`. */
  card(trigger: EscalationTrigger, goal: string, maxSteps: number): Escalation {
    const last = this.recent.at(-1)?.call ?? 'the last call';
    const needs =
      trigger === 'failures'
        ? `Its calls failed ${this.limits.failures} times in a row (the last: ${last}). It needs an instruction, or you to do this step by hand.`
        : trigger === 'rejections'
          ? `You rejected ${this.limits.rejections} similar calls (${last}). It needs to know what you want instead.`
          : `It used its ${maxSteps} steps for this turn without finishing. Retry gives it ${maxSteps} more.`;
    // "Failed N times in a row": the card lists those attempts, not the successes before them.
    const failed = this.recent.filter((r) => !r.result.startsWith('ok:'));
    const tried = trigger === 'failures' && failed.length > 0 ? failed : this.recent;
    return { trigger, goal: short(goal) || '(no goal stated)', tried: [...tried], needs };
  }
}

function resultText(result: ToolResultEnvelope): string {
  if (result.status === 'executed') return `${isFailure(result) ? 'failed' : 'ok'}: ${result.output ?? ''}`;
  return `${result.status}: ${result.reason ?? ''}`;
}
