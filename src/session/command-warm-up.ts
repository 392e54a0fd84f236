/**
 * What the first command of a session needs that no call decides, made ready ahead of it:
 * the command judge's module (the rules, without the shell grammar), then each tool's own warm-up —
 * for execute_command the sandbox layout, the paths the repository's git config names and the
 * protection scan, remembered until something they read changes. One step per turn of the event
 * loop, and none while a model's answer is being handled (it waits for the answer's card or its
 * calls' end). Started while the person types the first prompt, or as a turn starts (behind its
 * first model request); once per session.
 * Not the shadow repository: opening it (simple-git's load and a git spawn, ~30 ms of the main
 * thread) landed between a quick model's answer and the first card (measured: the first `touch x`
 * card 136 → 106 ms without it); the idle warm-up opens it while the person types, and the first
 * checkpoint while its card is read.
 * Not the shell grammar: loading it costs ~20 MiB and ~140 ms, which a session that runs only plain
 * commands, or none, must not pay; it loads with the first command that is more than words (the gate
 * waits for it) or while a command's card is read (src/session/wiring/command-guard-loader.ts).
 */
import type { PathFence } from '../policy/guards/path-guard';
import type { AnyTool } from '../tools/types';

export type CommandWarmUp = {
  /** Resolves once the sandbox verdict is known (the tools' warm-up depends on it). */
  sandboxChecked(): Promise<void>;
  tools: readonly AnyTool[];
  root: string;
  fence: PathFence;
  /** Loads the command judge's module (never rejects). */
  prepareJudge(): Promise<void>;
  /**
   * Resolves once no model answer is being handled, nor was for `calmMs` (session/answer-watch.ts);
   * each step waits for it.
   */
  quiet?(calmMs: number): Promise<void>;
  /** True once the session closed: the steps stop. */
  closed(): boolean;
};

/**
 * How long a model's answer takes at least, from the turn's start (which includes building and
 * sending the first request: ~30 ms cold) or from the last answer's card or call: the warm-up's
 * steps run only after this much quiet (see `run`).
 */
const THINK_TIME_MS = 100;

/**
 * Returns the function that starts the warm-up (the first call) and resolves when it is done.
 * Contract: never rejects; a step that fails is skipped (the first call then does that work itself).
 */
export function commandWarmUp(o: CommandWarmUp): () => Promise<void> {
  let started: Promise<void> | undefined;
  const steps: (() => unknown)[] = [
    () => o.prepareJudge(),
    () => o.sandboxChecked(),
    ...o.tools.map((tool) => () => tool.warm?.({ root: o.root, fence: o.fence })),
  ];
  const run = async () => {
    // A model's answer takes longer than this (a hosted model's first token: 300 ms and more): its
    // think time is what the steps fill. One that comes sooner (a cached answer, the bench's on
    // 127.0.0.1) leaves none, and its card would wait behind a step (the sandbox layout, ~15 ms);
    // the steps then wait for the quiet (its card, or its calls' end).
    await new Promise((resolve) => setTimeout(resolve, THINK_TIME_MS).unref());
    for (const step of steps) {
      // Behind what is already queued (the turn's request, a frame): a step never goes first.
      await new Promise((resolve) => setImmediate(resolve));
      await o.quiet?.(THINK_TIME_MS);
      if (o.closed()) return;
      await Promise.resolve()
        .then(step)
        .catch(() => undefined);
    }
  };
  return () => {
    started ??= run();
    return started;
  };
}
