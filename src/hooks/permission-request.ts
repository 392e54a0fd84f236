/**
 * `PermissionRequest`: the hooks that may answer a card before it waits for a person, where a person
 * could. Only tool cards (a diff, a command, a call's arguments) — plans, questions and escalations are
 * a conversation with the person, so no hook answers them; nor a card that needs two people. What reaches a card has passed the hard
 * guards and the deny rules already: a hook can never approve past them. The hook's answer goes to the
 * queue as a decision (`decidedBy: {channel: "hook", hook}`) and passes the same checks as a person's:
 * a high-risk call needs the second confirmation, which a hook cannot give, so its card stays for a
 * person. `allow` approves, `deny` (or exit 2) rejects with the hook's reason, `ask` or no opinion leaves
 * the card to the person, and a hook that fails never approves: the card stays for a person (with
 * nobody there, the call fails as `hook_failed`).
 */
import type { ApprovalRequest, DecidedBy, Decision } from '../protocol';
import { strictest } from './hook-output';
import type { HookSet } from './hook-set';

/** What the hooks made of a card: a decision to apply, nothing (the person decides), or a failure. */
export type CardAnswer =
  | { kind: 'decided'; decision: Decision; by: DecidedBy; hook: string }
  | { kind: 'none'; note?: string }
  | { kind: 'failed'; hook: string; reason: string };

/** The cards a hook may answer: a tool call, not a conversation with the person. */
const ANSWERABLE: ReadonlySet<ApprovalRequest['preview']['kind']> = new Set(['diff', 'command', 'json']);

/**
 * The PermissionRequest hooks for `request`: undefined when none applies (the card shows at once),
 * else a start that runs them and resolves their answer (`signal`: the card ended meanwhile; the hooks
 * are stopped). Nothing runs before the start. Contract: the answer never rejects; it is `approve` or
 * `reject` only, never with `confirmHigh`.
 */
export function permissionRequest(
  set: HookSet,
  request: ApprovalRequest,
): ((signal: AbortSignal) => Promise<CardAnswer>) | undefined {
  if (!ANSWERABLE.has(request.preview.kind) || !set.has('PermissionRequest')) return undefined;
  // A card that needs two people is answered by two identities' signed decisions, never a program's.
  if (request.twoPerson) return undefined;
  const hooks = set.matching('PermissionRequest', set.namesOf(request.tool));
  if (hooks.length === 0) return undefined;
  const input = {
    ...set.common('PermissionRequest'),
    ...set.toolFields(request.tool, request.args),
    ...(request.callId ? { tool_use_id: request.callId } : {}),
    request_id: request.id,
    args_hash: request.argsHash,
    risk: request.risk.level,
    risk_reasons: request.risk.reasons,
    rule: request.rule,
    explanation: request.explanation,
    agent: { id: request.agentId, name: request.agentName },
    ...(request.expiresAt ? { expires_at: request.expiresAt } : {}),
    permission_suggestions: [],
  };
  return (signal) =>
    set.run(hooks, input, signal).then(
      (answers): CardAnswer => {
        const pick = strictest(answers.map((a) => a.verdict));
        const hook = answers.find((a) => a.verdict === pick)?.hook;
        if (!pick || !hook) return { kind: 'none' };
        const by: DecidedBy = { channel: 'hook', hook: hook.name };
        if (pick.kind === 'failed')
          return {
            kind: 'failed',
            hook: hook.name,
            reason: `hook_failed (${pick.detail}): the PermissionRequest hook ${hook.name} failed: ${pick.reason}`,
          };
        if (pick.kind === 'deny')
          return {
            kind: 'decided',
            decision: { kind: 'reject', reason: pick.reason },
            by: { ...by, reason: pick.reason },
            hook: hook.name,
          };
        if (pick.kind === 'allow')
          return {
            kind: 'decided',
            decision: { kind: 'approve' },
            by: pick.reason ? { ...by, reason: pick.reason } : by,
            hook: hook.name,
          };
        return pick.kind === 'ask'
          ? {
              kind: 'none',
              note: `The PermissionRequest hook ${hook.name} asks you${pick.reason ? `: ${pick.reason}` : '.'}`,
            }
          : { kind: 'none' };
      },
      (): CardAnswer => ({
        kind: 'failed',
        hook: 'hooks',
        reason: 'hook_failed: the PermissionRequest hooks could not be run',
      }),
    );
}
