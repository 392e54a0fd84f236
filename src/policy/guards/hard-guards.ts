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
