import type { Risk, RiskLevel } from '../protocol';
import { readsOrScratch } from './reads-or-scratch';
import type { CallFacts, WriteFact, WriteState } from './facts';
import { entryWarning } from './network-hosts';

const RANK: Record<RiskLevel, number> = { low: 0, medium: 1, high: 2 };

/** The higher of two levels. */
export function maxRisk(a: RiskLevel, b: RiskLevel): RiskLevel {
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * Rates a call from its facts alone: what it touches, not who asks. Pure.
 * Contract: a command the guard cannot judge, that destroys, that writes a protected path or a path
 * only known at run time, or a call that reads a credential file, is high; a command that writes
 * anything is never low.
 */
export function assessRisk(facts: CallFacts): Risk {
  const reasons: string[] = [];
  const command = facts.command;
  const writes = facts.writes ?? [];
  // The base level; everything below only raises it (a read-only command must not lower a protected path).
  // Plain statements rather than a helper closure: this runs on every gated call.
  // Every part must agree with the verdict: a label is never trusted further than its parts.
  // Writes into the sandbox's private /tmp are gone after the run: nothing there to ask about.
  const readOnlyCommand = command?.kind === 'ok' && readsOrScratch(command.parts, writes);
  let level: RiskLevel =
    facts.kind === 'read' || facts.kind === 'network' || readOnlyCommand ? 'low' : 'medium';
  const guarded = protectedArgument(facts);
  if (guarded && facts.kind !== 'read') {
    level = 'high';
    reasons.push(`touches the protected path ${guarded}`);
  } else if (facts.kind === 'write' && facts.toolWrite === undefined)
    reasons.push('writes inside the project');
  else if (facts.kind === 'write') {
    const said = stateReason(
      facts.toolWrite,
      facts.paths[0]?.verdict.ok ? facts.paths[0].verdict.relative : '',
    );
    if (said.high) level = 'high';
    reasons.push(said.text);
  }
  if (command?.kind === 'cannot_judge') {
    level = 'high';
    reasons.push(`the command guard cannot judge it: ${command.reason}`);
  }
  if (command?.kind === 'ok') {
    if (readOnlyCommand) reasons.push('read-only command');
    for (const d of command.destructive) {
      level = 'high';
      reasons.push(d);
    }
  }
  for (const w of writes) {
    const said = writeReason(w);
    if (said.high) level = 'high';
    reasons.push(said.text);
  }
  if (facts.secret) {
    level = 'high';
    reasons.push(`reads the credential file ${facts.secret}: its content would go to the model`);
  }
  // write_file replaces a binary file with text only when asked to (replace_binary), and that is never routine.
  if (facts.kind === 'write' && facts.args.replace_binary === true) {
    level = 'high';
    reasons.push(
      'replaces a binary file with text (replace_binary): the old content is not shown and is lost',
    );
  }
  if (facts.readsOutside !== undefined) reasons.push(`reads ${facts.readsOutside}, outside the project`);
  if (facts.command && !facts.sandboxed) {
    level = maxRisk(level, 'medium');
    reasons.push('runs without a sandbox');
  }
  if (facts.network) {
    // What goes out may carry anything the command can read: never low. An address of this machine
    // or a private network reaches services the sandbox otherwise keeps out: high.
    level = maxRisk(level, 'medium');
    const hosts = facts.network.entries.map((e) => e.text).join(', ');
    reasons.push(
      facts.sandboxed
        ? `may reach ${hosts} through warden's proxy (nothing else)`
        : `asks to reach ${hosts}, but without a sandbox it has this machine's whole network`,
    );
    for (const entry of facts.network.entries) {
      const warning = entryWarning(entry);
      if (!warning) continue;
      level = 'high';
      reasons.push(`reaches ${entry.text}: ${warning}`);
    }
  }
  if (facts.mcpServer)
    reasons.push(`a tool of the MCP server ${facts.mcpServer}: warden cannot see what it does`);
  if (facts.kind === 'execute' && !facts.command && !facts.mcpServer)
    reasons.push('changes files or runs code');
  return { level, reasons };
}

/** A protected path given as an argument (a write target, a command's cwd). */
function protectedArgument(facts: CallFacts): string | undefined {
  for (const p of facts.paths) if (p.verdict.ok && p.verdict.protectedBy) return p.verdict.relative;
  return undefined;
}

function writeReason(w: WriteFact): { high: boolean; text: string } {
  if (w.dynamic)
    return { high: true, text: `writes ${w.target.replaceAll('\u0000', '')}, a path only known at run time` };
  if (w.scratch)
    return { high: false, text: `writes ${w.target} (private to the sandbox, gone after the run)` };
  if (w.verdict.ok && w.verdict.protectedBy)
    return { high: true, text: `writes the protected path ${w.verdict.relative}` };
  if (!w.verdict.ok) return { high: false, text: `writes ${w.target}` };
  return stateReason(w.state, w.verdict.relative || '.');
}

/** One rule for every way of writing: new → medium; restorable → medium; not restorable → high. */
function stateReason(state: WriteState | undefined, path: string): { high: boolean; text: string } {
  if (state?.kind === 'new') return { high: false, text: `creates ${path} (a new file)` };
  if (state?.kind === 'covered')
    return { high: false, text: `overwrites ${path} if it changes it; undo restores it` };
  const why = state?.kind === 'uncovered' ? state.why : 'warden does not know whether undo can restore it';
  return { high: true, text: `overwrites ${path}, which undo cannot restore (${why})` };
}
