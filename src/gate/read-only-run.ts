/**
 * Which command runs need no checkpoint (issue 34): a command every part of which the guard judged
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
