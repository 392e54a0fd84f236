/**
 * Which command runs need no checkpoint: a command every part of which the guard judged
 * read-only (or writing only the sandbox's private /tmp) runs with the whole project mounted
 * read-only, so the operating system — not the parser — guarantees it cannot change what a checkpoint
 * would hold. A judge that is wrong makes the command fail on a read-only file system; it never lets
 * an unrecorded change through. Without bubblewrap nothing enforces it, so the checkpoint stays.
 */
import type { CallFacts } from '../policy/facts';
import { readsOrScratch } from '../policy/reads-or-scratch';
import type { AnyTool, SandboxInfo } from '../tools/types';

/**
 * True when `tool` may run these `facts` with the project read-only and without a checkpoint.
 * `lift`: protected paths a person's card made writable for the run (then it writes: never read-only).
 */
export function readOnlyRun(
  tool: AnyTool,
  facts: CallFacts | undefined,
  sandbox: SandboxInfo,
  lift: readonly string[] | undefined,
): boolean {
  if (!tool.readOnlyWhenJudged || sandbox.kind !== 'bwrap' || !facts?.sandboxed) return false;
  if ((lift?.length ?? 0) > 0) return false;
  const command = facts.command;
  return command?.kind === 'ok' && command.parts.length > 0 && readsOrScratch(command.parts, facts.writes);
}

type AheadCheckpoint = (label: string, ahead?: boolean) => Promise<unknown>;
const warmed = new WeakSet<AheadCheckpoint>();

/**
 * After a read-only run, the turn's checkpoint is taken ahead once per caller, in the background:
 * the first changing call of the turn then finds the shadow repository's index up to date (before,
 * the read-only command's own checkpoint did this on the way to its result; without it a session's
 * first `touch x` waited for the first full snapshot). Records no step: undo is unchanged.
 * Contract: never throws; a failed snapshot is met again, and reported, by the changing call's own.
 */
export function checkpointAheadOnce(checkpoint: AheadCheckpoint | undefined, label: string): void {
  if (!checkpoint || warmed.has(checkpoint)) return;
  warmed.add(checkpoint);
  // After the result has gone back (the next request first).
  setTimeout(() => void checkpoint(label, true).catch(() => undefined), 0);
}
