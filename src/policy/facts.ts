import { posix } from 'node:path';
import type { SandboxInfo, ToolDefinition } from '../tools/types';
import type { CommandGuard, CommandVerdict } from './command-types';
import type { PathFence, PathVerdict } from './path-guard';

/** What the guards learned about a call; the policy decides on these facts, never on raw strings. */
export type CallFacts = {
  tool: string;
  kind: ToolDefinition['kind'];
  args: Record<string, unknown>;
  /** Every path argument, checked by the fence (an absent optional path is the project root). */
  paths: { field: string; verdict: PathVerdict }[];
  command?: CommandVerdict;
  /** Every path the command writes (its parts' `writes`), checked by the fence from the command's cwd. */
  writes?: { target: string; verdict: PathVerdict }[];
  url?: string;
  sandboxed: boolean;
  /** Set for `mcp__<server>__<tool>` tools. */
  mcpServer?: string;
  /** Set when a capped argument is too large. */
  oversize?: { field: string; bytes: number; limit: number };
};

export type FactDeps = { fence: PathFence; commands: CommandGuard; sandbox: SandboxInfo };

/** Runs the guards a tool declares over its (already schema-valid) arguments. Never throws. */
export function gatherFacts(tool: ToolDefinition, args: Record<string, unknown>, deps: FactDeps): CallFacts {
  const g = tool.guarded ?? {};
  const paths = (g.paths ?? []).map((field) => {
    const value = args[field];
    return { field, verdict: deps.fence.check(typeof value === 'string' ? value : '.') };
  });
  const facts: CallFacts = { tool: tool.name, kind: tool.kind, args, paths, sandboxed: deps.sandbox.kind !== 'none' };
  if (g.command && typeof args[g.command] === 'string') {
    facts.command = deps.commands.judge(args[g.command] as string);
    const writes = commandWrites(facts.command, paths.find((p) => p.field === 'cwd')?.verdict, deps.fence);
    if (writes.length > 0) facts.writes = writes;
  }
  if (g.url && typeof args[g.url] === 'string') facts.url = args[g.url] as string;
  if (g.maxBytes) {
    const value = args[g.maxBytes.field];
    const bytes = typeof value === 'string' ? Buffer.byteLength(value) : 0;
    if (bytes > g.maxBytes.bytes) facts.oversize = { field: g.maxBytes.field, bytes, limit: g.maxBytes.bytes };
  }
  const server = /^mcp__([^_]+(?:_[^_]+)*?)__/.exec(tool.name)?.[1];
  if (server) facts.mcpServer = server;
  return facts;
}

/** The command's write targets through the fence; relative ones from the command's cwd inside the project. */
function commandWrites(verdict: CommandVerdict, cwd: PathVerdict | undefined, fence: PathFence): { target: string; verdict: PathVerdict }[] {
  const base = cwd?.ok ? cwd.relative : '';
  const seen = new Set<string>();
  const out: { target: string; verdict: PathVerdict }[] = [];
  for (const part of verdict.parts) {
    for (const target of part.writes ?? []) {
      if (seen.has(target)) continue;
      seen.add(target);
      out.push({ target, verdict: fence.check(posix.isAbsolute(target) || base === '' ? target : posix.join(base, target)) });
    }
  }
  return out;
}

/** The first protected path a call touches, if any. */
export function protectedPath(facts: CallFacts): string | undefined {
  for (const p of facts.paths) if (p.verdict.ok && p.verdict.protectedBy) return p.verdict.relative;
  return undefined;
}
