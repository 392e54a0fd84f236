/**
 * The hooks that hear what happened and change nothing: `PostToolUse` after a call ran (its result is
 * final; a hook that blocks or fails is reported, never changes it), `Notification` when warden tells
 * the person something (a card waits, one is about to expire, a turn ended: the same moments as
 * `notify`), and `Stop` when the main agent's turn ends. A Stop hook that blocks (exit 2, `decision:
 * "block"`) asks Claude Code to go on with its reason as the next instruction; warden does not take a
 * program's word as the person's prompt: it shows the reason, and the person decides whether to go on.
 */
import type { CoreEvent, NotifyKind, Notification } from '../protocol';
import type { HookSet } from './hook-set';

export type AfterEventsOptions = {
  /** Tells the person what a hook said (a PostToolUse block reason, a Stop hook asking to go on). */
  tell: (text: string) => void;
};

/** Claude Code's `notification_type` for warden's notification kinds. */
const NOTIFICATION_TYPES: Record<NotifyKind, string> = {
  approval: 'permission_prompt',
  plan: 'permission_prompt',
  escalation: 'permission_prompt',
  expiring: 'permission_prompt',
  question: 'elicitation_dialog',
  turn_done: 'idle_prompt',
};

/** A result's text a PostToolUse hook gets, at most (its head). */
const RESPONSE_CHARS = 16_000;

/** Listens to the session's events (`onEvent`) and its notifications (`onNotify`). Contract: never throws. */
export function afterEvents(
  set: HookSet,
  o: AfterEventsOptions,
): { onEvent(event: CoreEvent): void; onNotify(notification: Notification): void } {
  const calls = new Map<string, { tool: string; args: unknown; agentId: string }>();
  const said = (event: string, name: string, how: string, reason: string) =>
    o.tell(`The ${event} hook ${name} ${how}: ${reason}`);

  const postToolUse = (event: Extract<CoreEvent, { type: 'tool_finished' }>) => {
    const call = calls.get(event.callId);
    calls.delete(event.callId);
    if (!call || event.result.status !== 'executed') return;
    const hooks = set.matching('PostToolUse', set.namesOf(call.tool));
    if (hooks.length === 0) return;
    const { output, data } = event.result;
    const input = {
      ...set.common('PostToolUse'),
      ...set.toolFields(call.tool, call.args),
      tool_use_id: event.callId,
      tool_response: {
        status: event.result.status,
        ...(output !== undefined ? { output: output.slice(0, RESPONSE_CHARS) } : {}),
        ...(data !== undefined ? { data } : {}),
      },
      agent: { id: call.agentId },
    };
    void set.run(hooks, input).then((answers) => {
      for (const { hook, verdict } of answers)
        if (verdict.kind === 'deny')
          said(
            'PostToolUse',
            hook.name,
            'objects (the call had already run; its result stands)',
            verdict.reason,
          );
    });
  };

  const stop = (event: Extract<CoreEvent, { type: 'turn_done' }>) => {
    const hooks = set.matching('Stop', []);
    if (hooks.length === 0) return;
    const input = { ...set.common('Stop'), stop_hook_active: false, last_assistant_message: event.text };
    void set.run(hooks, input).then((answers) => {
      for (const { hook, verdict } of answers)
        if (verdict.kind === 'deny')
          said(
            'Stop',
            hook.name,
            "asks to go on (warden does not go on by a hook's word; tell the agent if you agree)",
            verdict.reason,
          );
    });
  };

  return {
    onEvent(event) {
      try {
        if (event.type === 'tool_started' && event.agentId !== 'person' && set.has('PostToolUse'))
          calls.set(event.callId, { tool: event.tool, args: event.args, agentId: event.agentId });
        else if (event.type === 'tool_finished') postToolUse(event);
        else if (event.type === 'turn_done' && event.agentId === 'main' && set.has('Stop')) stop(event);
      } catch {
        // A hook that hears is advice: nothing of the session depends on it.
      }
    },
    onNotify(n) {
      try {
        if (!set.has('Notification')) return;
        const type = NOTIFICATION_TYPES[n.kind];
        const hooks = set.matching('Notification', [type, n.kind]);
        if (hooks.length === 0) return;
        const input = {
          ...set.common('Notification'),
          message: n.text,
          title: 'warden',
          notification_type: type,
          warden_kind: n.kind,
          ...(n.requestId ? { request_id: n.requestId } : {}),
          ...(n.tool ? { tool_name: set.namesOf(n.tool)[0], warden_tool: n.tool } : {}),
          ...(n.call ? { call: n.call } : {}),
          ...(n.risk ? { risk: n.risk } : {}),
          ...(n.expiresAt ? { expires_at: n.expiresAt } : {}),
        };
        void set.run(hooks, input);
      } catch {
        // As above.
      }
    },
  };
}
