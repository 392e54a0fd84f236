import { type CallFacts, outsideWrite } from '../facts';
import { checkUrl } from './ssrf-guard';
import { formatBytes } from '../../text/bytes';

export type GuardDenial = { ruleId: string; reason: string };

/**
 * Step 1 of the gate: what no person, rule, mode or grant can override.
 * Contract: pure; returns the first denial or undefined.
 */
export function hardGuardDenial(facts: CallFacts): GuardDenial | undefined {
  for (const { verdict } of facts.paths)
    if (!verdict.ok) return { ruleId: verdict.ruleId, reason: verdict.reason };
  if (facts.command?.kind === 'deny') return { ruleId: facts.command.ruleId, reason: facts.command.reason };
  // A file a hook runs (or the config naming it) runs later outside the sandbox: no call writes it.
  const sealed = sealedWrite(facts);
  if (sealed)
    return {
      ruleId: 'hook-file',
      reason: `${sealed} is run by warden's hooks (or names them), and hooks run on your machine outside the sandbox: no tool call or command may change it. Edit it yourself.`,
    };
  // A command's write target is a path like write_file's: outside the project, no one may approve it.
  const outside = outsideWrite(facts);
  if (outside && !outside.verdict.ok)
    return {
      ruleId: outside.verdict.ruleId,
      reason: `The command writes outside the project: ${outside.verdict.reason}`,
    };
  if (facts.oversize) {
    const { field, bytes, limit } = facts.oversize;
    return {
      ruleId: 'size-cap',
      reason: `${field} is ${formatBytes(bytes)}, over the ${formatBytes(limit)} limit.`,
    };
  }
  if (facts.url !== undefined) {
    const url = checkUrl(facts.url);
    if (!url.ok) return { ruleId: url.ruleId, reason: url.reason };
  }
  return undefined;
}

/** The sealed path a call writes (a write tool's path, a command's write target), if any. */
function sealedWrite(facts: CallFacts): string | undefined {
  if (facts.kind === 'write')
    for (const { verdict } of facts.paths) if (verdict.ok && verdict.sealedBy) return verdict.relative;
  for (const w of facts.writes ?? []) if (w.verdict.ok && w.verdict.sealedBy) return w.verdict.relative;
  return undefined;
}
