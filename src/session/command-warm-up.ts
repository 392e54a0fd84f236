/**
 * What the first command of a session needs that no call decides, made ready ahead of it:
 * each tool's own warm-up — for execute_command the sandbox layout, the paths the repository's git config
 * names and the protection scan, remembered until something they read changes — and the shadow
 * repository opened (no snapshot: a read-only command takes none, the first changing one only its own). One step per turn of
 * the event loop, so an answer that arrives meanwhile is handled between steps. Started while the
 * person types the first prompt, or as a turn starts (behind its first model request); once per session.
 * Not the shell grammar: loading it costs ~50 MiB and ~0.9 s of CPU (its wasm compiled; measured on a
 * headless run that ran no command: 65 → 119 MiB peak), which a session that runs no command must not
 * pay; it loads with the first command that is more than words (the gate waits for it), and a plain
 * line (`ls -la`, `npm test`) is judged without it (src/session/wiring/command-guard-loader.ts).
 */
import type { PathFence } from '../policy/guards/path-guard';
import type { AnyTool } from '../tools/types';

export type CommandWarmUp = {
  /** Resolves once the sandbox verdict is known (the tools' warm-up depends on it). */
  sandboxChecked(): Promise<void>;
  tools: readonly AnyTool[];
  root: string;
  fence: PathFence;
  /** Opens the shadow repository (no snapshot), so the first changing command's checkpoint is only that. */
  openCheckpoints(): void;
  /** True once the session closed: the steps stop. */
  closed(): boolean;
};

/**
 * Returns the function that starts the warm-up (the first call) and resolves when it is done.
 * Contract: never rejects; a step that fails is skipped (the first call then does that work itself).
 */
export function commandWarmUp(o: CommandWarmUp): () => Promise<void> {
  let started: Promise<void> | undefined;
  const steps: (() => unknown)[] = [
    () => o.sandboxChecked(),
    ...o.tools.map((tool) => () => tool.warm?.({ root: o.root, fence: o.fence })),
    () => o.openCheckpoints(),
  ];
  const run = async () => {
    for (const step of steps) {
      // Behind what is already queued (the turn's request, a frame): a step never goes first.
      await new Promise((resolve) => setImmediate(resolve));
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
