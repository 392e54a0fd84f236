import type { CoreEvent } from '../protocol';

/**
 * Whether a model's answer is being handled: from its first text or tool name until one of its calls
 * reaches a card or finishes, or the turn ends. Work that no call needs yet (the command warm-up) waits
 * for the quiet between: a request in flight for longer than a quick model takes, or a person reading a
 * card. With a quick model (or the bench's, on 127.0.0.1) a warm-up step run meanwhile (the sandbox
 * layout, ~15–25 ms in a profile) sat between the answer and its card: counted from the turn's start,
 * the think time had passed before the first request went out (the client's load, ~80 ms cold). Contract: `quiet` never rejects; a watch that
 * misses an answer's end only makes the warm-up late (each step's work is then done by the call that
 * needs it).
 */
export class AnswerWatch {
  private handling = false;
  private sent = false;
  private settledAt = Number.NEGATIVE_INFINITY;
  private readonly waiters: (() => void)[] = [];

  /**
   * A request went out: the quiet starts again now (a model that answers within `calmMs` leaves none,
   * so a step never sits between a quick answer and its card).
   */
  readonly requested = (): void => {
    this.settledAt = performance.now();
    this.sent = true;
  };

  /** A tool's name streamed in: the answer is being handled. */
  readonly answering = (): void => {
    this.handling = true;
    this.sent = false;
  };

  /** The session's events: text starts an answer; a card, a finished call, a turn's end settle it. */
  readonly onEvent = (event: CoreEvent): void => {
    if (event.type === 'message_delta') this.answering();
    else if (SETTLING.has(event.type)) this.settle();
  };

  /** True while a request is out and nothing of its answer has come yet (the model's think time). */
  get waiting(): boolean {
    return this.sent;
  }

  /**
   * Resolves once no answer is being handled and none was for `calmMs` (a model that answers each
   * request at once leaves no quiet: the work then waits, or is done by the call that needs it).
   */
  async quiet(calmMs = 0): Promise<void> {
    for (;;) {
      if (this.handling) await new Promise<void>((resolve) => this.waiters.push(resolve));
      const left = this.settledAt + calmMs - performance.now();
      if (left <= 0 && !this.handling) return;
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left).unref());
    }
  }

  private settle(): void {
    this.handling = false;
    this.sent = false;
    this.settledAt = performance.now();
    for (const wake of this.waiters.splice(0)) wake();
  }
}

const SETTLING = new Set<CoreEvent['type']>(['approval_requested', 'tool_finished', 'turn_done', 'error']);

/** The watch over a session's events (the quiet the command warm-up runs in). */
export function watchModelAnswers(events: { tap(listener: (event: CoreEvent) => void): void }): AnswerWatch {
  const watch = new AnswerWatch();
  events.tap(watch.onEvent);
  return watch;
}
