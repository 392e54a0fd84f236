import type { Risk, RiskLevel } from '../protocol';
import { type CallFacts, protectedPath } from './facts';

const RANK: Record<RiskLevel, number> = { low: 0, medium: 1, high: 2 };

/** The higher of two levels. */
export function maxRisk(a: RiskLevel, b: RiskLevel): RiskLevel {
  return RANK[a] >= RANK[b] ? a : b;
}

/** Rates a call from its facts alone: what it touches, not who asks. Pure. */
export function assessRisk(facts: CallFacts): Risk {
  const reasons: string[] = [];
  const command = facts.command;
  // The base level; everything below only raises it (a read-only command must not lower a protected path).
  // Plain statements rather than a helper closure: this runs on every gated call.
  const readOnlyCommand = command?.kind === 'ok' && command.readOnly;
  let level: RiskLevel = facts.kind === 'read' || facts.kind === 'network' || readOnlyCommand ? 'low' : 'medium';
  const guarded = protectedPath(facts);
  if (guarded && facts.kind !== 'read') {
    level = 'high';
    reasons.push(`touches the protected path ${guarded}`);
  } else if (facts.kind === 'write') reasons.push('writes inside the project');
  if (command?.kind === 'cannot_judge') {
    level = 'high';
    reasons.push(`the command guard cannot judge it: ${command.reason}`);
  }
  if (command?.kind === 'ok') {
    if (command.readOnly) reasons.push('read-only command');
    for (const d of command.destructive) {
      level = 'high';
      reasons.push(d);
    }
  }
  if (facts.command && !facts.sandboxed) {
    level = maxRisk(level, 'medium');
    reasons.push('runs without a sandbox');
  }
  if (facts.mcpServer) reasons.push(`a tool of the MCP server ${facts.mcpServer}`);
  if (facts.kind === 'execute' && !facts.command && !facts.mcpServer) reasons.push('changes files or runs code');
  return { level, reasons };
}
