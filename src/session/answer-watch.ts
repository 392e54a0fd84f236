import type { CoreEvent } from '../protocol';

/**
 * Whether a model's answer is being handled: from its first text or tool name until one of its calls
 * reaches a card or finishes, or the turn ends. Work that no call needs yet (the command warm-up) waits
 * for the quiet between: while the request is in flight, or while a person reads a card. With a quick
 * model (or the bench's, on 127.0.0.1) a warm-up step run meanwhile was ~15–25 ms between the answer
 * and its first card. Contract: `quiet` never rejects; a watch that misses its end only makes the
 * warm-up late (each step's work is then done by the call that needs it).
 */
export class AnswerWatch {
  private handling = false;
  private readonly waiters: (() => void)[] = [];

  /** A tool's name streamed in: the answer is being handled. */
  readonly answering = (): void => {
    this.handling = true;
  };

  /** The session's events: text starts an answer; a card, a finished call, a turn's end settle it. */
  readonly onEvent = (event: CoreEvent): void => {
    if (event.type === 'message_delta') this.handling = true;
    else if (SETTLING.has(event.type)) this.settle();
  };

  /** Resolves once no answer is being handled. */
  quiet(): Promise<void> {
    return this.handling ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve();
  }

  private settle(): void {
    this.handling = false;
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
