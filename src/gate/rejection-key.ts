import type { CallFacts } from '../policy/facts';
import type { AnyTool } from '../tools/types';
import type { CheckCall } from './edit-stage';
import { hashArgs } from './hash';

/**
 * What "the same call" means for a repeat rejection: a fully parsed command by its parsed form (each
 * part's argv and write targets) plus its other arguments, so `touch x`, `touch  x` and `touch "x"`
 * are one call; anything else by its argument hash. A command the guard could not parse keeps the
 * hash of its raw text: two texts it cannot read are not known to be the same.
 * Contract: pure; never throws for schema-valid arguments.
 */
export function rejectionKey(
  tool: string,
  commandField: string | undefined,
  facts: CallFacts,
  argsHash: string,
): string {
  const c = facts.command;
  if (!commandField || c?.kind !== 'ok') return `${tool}:${argsHash}`;
  const { [commandField]: _text, ...rest } = facts.args;
  const parsed = c.parts.map((p) =>
    p.writes?.length ? { argv: p.argv, writes: p.writes } : { argv: p.argv },
  );
  return `${tool}:parsed:${hashArgs({ ...rest, [commandField]: parsed })}`;
}

/** The repeat-rejection key of a call of `tool` with raw arguments, or undefined when they do not parse. Contract: never throws. */
export function similarCallKey(
  tool: AnyTool | undefined,
  raw: unknown,
  check: CheckCall,
): string | undefined {
  if (!tool) return undefined;
  try {
    const result = check(tool, raw);
    if (!result.ok) return undefined;
    const { args, facts } = result.checked;
    return rejectionKey(tool.name, tool.guarded?.command, facts, hashArgs(args));
  } catch {
    return undefined;
  }
}

/** The calls each task had rejected, by `rejectionKey`: a repeat is answered "rejected" without asking. */
export class RejectionMemory {
  private readonly byTask = new Map<string, Set<string>>();

  /** Whether the task had this very call rejected. */
  has(taskId: string, key: string): boolean {
    return this.byTask.get(taskId)?.has(key) === true;
  }

  /** Remembers a person's rejection for the task. */
  remember(taskId: string, key: string): void {
    let keys = this.byTask.get(taskId);
    if (!keys) this.byTask.set(taskId, (keys = new Set()));
    keys.add(key);
  }
}
