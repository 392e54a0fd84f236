import type { ApprovalRequest, Decision } from '../../src/protocol';

/**
 * The scripted person of the harnesses confirms a high-risk approve, as the drawer's second `y`
 * does; the tests of the confirmation itself (high-risk-key, answer-tui, high-confirm) decide raw.
 */
export function confirmingHigh(
  pending: readonly ApprovalRequest[],
  id: string,
  decision: Decision,
): Decision {
  if (decision?.kind !== 'approve' || decision.confirmHigh) return decision;
  const request = pending.find((r) => r.id === id);
  return request?.risk.level === 'high' ? { kind: 'approve', confirmHigh: true } : decision;
}
