import type { CallFacts, FactDeps } from '../policy/facts';
import { gatherFacts } from '../policy/facts';
import { hardGuardDenial } from '../policy/guards/hard-guards';
import type { AnyTool, FencedPath, ToolContext, ToolOutput } from '../tools/types';
import type { FileRead } from '../tools/fs/safe-fs';
import { hashArgs, hashContent } from './hash';
import { hashOfRead, readExisting } from './preview';
import type { ApprovalToken, TokenMint } from './tokens';

export type Execution =
  | { kind: 'ran'; output: ToolOutput; durationMs: number }
  | { kind: 'refused'; code: 'token_unknown' | 'token_reused' | 'token_mismatch'; reason: string }
  | { kind: 'blocked'; ruleId: string; reason: string }
  | { kind: 'file_changed'; reason: string }
  | { kind: 'crashed'; reason: string };

/**
 * Runs a tool's executor, but only for a valid one-time token (steps 5–6 of the gate): the token
 * must match the tool and the arguments' hash, the guards are checked again at this moment, and a
 * write's target must be as it was when the request was made.
 * Contract: never throws; the executor never runs without a fresh, matching token.
 */
export class GuardedExecutor {
  constructor(
    private readonly tools: ReadonlyMap<string, AnyTool>,
    private readonly mint: TokenMint,
    private readonly deps: FactDeps,
  ) {}

  /**
   * `checked`: the facts of these arguments gathered just now (a call allowed without waiting for a
   * person, Gate.run); the guards are then not run a second time for the same instant.
   */
  async run(
    token: ApprovalToken,
    name: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
    checked?: CallFacts,
  ): Promise<Execution> {
    const redemption = this.mint.redeem(token, name, hashArgs(args));
    if (!redemption.ok) return { kind: 'refused', code: redemption.code, reason: redemption.reason };
    const tool = this.tools.get(name);
    if (!tool) return { kind: 'refused', code: 'token_mismatch', reason: `No tool named ${name}.` };
    try {
      const facts = checked?.args === args ? checked : gatherFacts(tool, args, this.deps);
      const denial = hardGuardDenial(facts);
      if (denial) return { kind: 'blocked', ...denial };
      // A tool that holds what it reads to the card (checksPreImage) reads the target once, itself.
      if (redemption.fileHash !== undefined && !tool.checksPreImage) {
        const changed = await targetChanged(facts, redemption.fileHash);
        if (changed) return { kind: 'file_changed', reason: `${changed} changed since you approved.` };
      }
      const started = performance.now();
      // The tool gets the verdicts just checked, for these very arguments, instead of resolving its paths again.
      const bound = redemption.fileHash;
      const output = await tool.execute(args, {
        ...ctx,
        paths: fencedPaths(facts),
        ...(bound !== undefined
          ? { preImageMatches: (read: FileRead) => sameAsCard(bound, read, tool.checksPreImage === true) }
          : {}),
      });
      return { kind: 'ran', output, durationMs: performance.now() - started };
    } catch (err) {
      return { kind: 'crashed', reason: `${name} failed: ${(err as Error).message}` };
    }
  }
}

/** The path verdicts of facts that passed the hard guards (so every one is ok), keyed by argument field. */
function fencedPaths(facts: CallFacts): Readonly<Record<string, FencedPath>> {
  const paths: Record<string, FencedPath> = {};
  for (const { field, verdict } of facts.paths) if (verdict.ok) paths[field] = verdict;
  return Object.freeze(paths);
}

/**
 * True when the target as read is what the card showed. For a tool that reads the target once
 * (checksPreImage), the read's hash is the card's, size and time included for a file too large to
 * preview; for any other, targetChanged has just compared that hash, and the bytes (a regular file or
 * none) are held to the card's content, or its size.
 */
function sameAsCard(bound: string, read: FileRead, once: boolean): boolean {
  if (once) return hashOfRead(read) === bound;
  const bytes = read.kind === 'file' ? read.bytes : undefined;
  if (bound.startsWith('size:')) return bytes !== undefined && bound.startsWith(`size:${bytes.length}:`);
  return hashContent(bytes) === bound;
}

async function targetChanged(facts: CallFacts, expected: string): Promise<string | undefined> {
  const target = facts.paths[0]?.verdict;
  if (!target?.ok) return undefined;
  const now = await readExisting(target.path);
  return now.hash === expected ? undefined : target.relative;
}
