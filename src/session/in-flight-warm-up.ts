/**
 * The code a first answer and its card run, run once ahead of them: while the person types the first
 * prompt (session/idle-warm-up.ts), or while the session's first request is in flight. Each piece is
 * cold the first time (V8 compiles and optimises it, a module is loaded, zod compiles a parser per
 * schema on its first parse, the redaction's big trigger regexes compile on first use): profiled on
 * the first `touch x` card with the prompt on the command line, ~15–20 ms of the path from the answer
 * to the card (issue 34). Run in the think time, the answer finds it warm.
 * Each step is short (≤ ~5 ms) and none starts once an answer's first byte is handled: with a quick
 * model the answer waits at most for the step under way, which ran code it needs anyway.
 */
import { redactString } from '../audit/secret-patterns';
import type { ModelClient } from '../llm/types';
import type { AnyTool } from '../tools/types';
import type { AnswerWatch } from './answer-watch';
import type { LazyCommandGuard } from './wiring/command-guard-loader';

/**
 * The pieces both warm-ups share: each a pure function of a sample. A step per tool's schema: all
 * fifteen in one step was ~13 ms, too long to sit between a quick answer and its card.
 */
export function firstAnswerCode(tools: readonly AnyTool[]): (() => unknown)[] {
  return [
    ...tools.map((tool) => () => tool.schema.safeParse({})),
    () => redactString('Authorization: Bearer warm-up · api_key=warm-up · https://user:warm-up@example.com'),
  ];
}

export type InFlightWarmUp = {
  tools: readonly AnyTool[];
  guard: LazyCommandGuard;
  model: ModelClient;
  answering: AnswerWatch;
};

/**
 * Returns what to call as a request goes out: the first call starts the steps (the judge's module and a
 * plain line through it, the shared pieces, the model client's own code against an in-memory answer),
 * one per turn of the event loop while `answering.waiting`; later calls do nothing.
 * Contract: never throws, never rejects, never writes or connects (each step is a load or a pure
 * function of a sample; the model client's warm-up is in memory); a skipped step's work is done by the
 * answer that needs it.
 */
export function inFlightWarmUp(o: InFlightWarmUp): () => void {
  let started = false;
  const steps: (() => unknown)[] = [
    () => o.guard.prepare(),
    () => o.guard.commands.judge('ls -la'),
    ...firstAnswerCode(o.tools),
    () => o.model.warmUp?.(),
  ];
  const next = (index: number): void => {
    const step = steps[index];
    if (!step || !o.answering.waiting) return;
    Promise.resolve()
      .then(step)
      .catch(() => undefined)
      .then(() => setImmediate(() => next(index + 1)));
  };
  return () => {
    if (started) return;
    started = true;
    // Behind the request's own writes: the step runs once the request is on its way.
    setImmediate(() => next(0));
  };
}
