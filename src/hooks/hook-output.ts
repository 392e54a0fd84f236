/**
 * What a hook said, read the way Claude Code documents it, and failing closed where it does not:
 * - exit 0 with nothing on stdout: no opinion;
 * - exit 0 with one JSON object: `hookSpecificOutput.permissionDecision` `allow|deny|ask` (with
 *   `permissionDecisionReason`), PermissionRequest's `hookSpecificOutput.decision.behavior` `allow|deny`
 *   (with `message`), the older top-level `decision` `approve|block` (with `reason`), `continue: false`
 *   (with `stopReason`: a stop, read as deny), and `systemMessage` (shown to the person);
 * - exit 2: block, with stderr as the reason (the documented block code);
 * - any other exit, a timeout, stdout that is not one JSON object, a value not in those lists: the hook
 *   failed (`hook_failed`, with `exit`, `timeout` or `bad_json`), which fails closed. Claude Code lets a
 *   call through when a hook fails; warden does not.
 * A hook may not rewrite the call (`updatedInput`): warden does not run input a hook changed, so that
 * fails closed too.
 */
import type { HookRunResult } from './hook-process';

/** Why a hook failed: its exit code, its timeout, what it printed, or it could not start. */
export type HookFailure = 'exit' | 'timeout' | 'bad_json' | 'spawn' | 'cancelled';

export type HookVerdict =
  | { kind: 'none'; message?: string }
  | { kind: 'allow'; reason?: string; message?: string }
  | { kind: 'ask'; reason?: string; message?: string }
  | { kind: 'deny'; reason: string; message?: string }
  | { kind: 'failed'; detail: HookFailure; reason: string };

/** How strict each answer is: a fold of several hooks keeps the strictest. */
export const STRICTNESS: Record<HookVerdict['kind'], number> = {
  none: 0,
  allow: 1,
  ask: 2,
  deny: 3,
  failed: 4,
};

const shortly = (text: string, max = 500): string => {
  const one = text.trim().replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/** A hook's run as a verdict. Contract: pure; never throws. */
export function verdictOf(run: HookRunResult, timeoutMs: number): HookVerdict {
  if (run.kind === 'timeout')
    return {
      kind: 'failed',
      detail: 'timeout',
      reason: `it ran longer than ${timeoutMs / 1000} s and was stopped`,
    };
  if (run.kind === 'cancelled')
    return { kind: 'failed', detail: 'cancelled', reason: 'the call was cancelled' };
  if (run.kind === 'spawn_failed')
    return { kind: 'failed', detail: 'spawn', reason: `it could not start (${run.message})` };
  if (run.code === 2)
    return { kind: 'deny', reason: shortly(run.stderr) || 'the hook exited with code 2 (block)' };
  if (run.code !== 0) {
    const said = shortly(run.stderr, 200);
    const how = run.code === null ? `signal ${run.signal}` : `exit code ${run.code}`;
    return { kind: 'failed', detail: 'exit', reason: `it ended with ${how}${said ? `: ${said}` : ''}` };
  }
  if (run.overflow)
    return { kind: 'failed', detail: 'bad_json', reason: 'it printed more than 64 KiB on stdout' };
  const text = run.stdout.trim();
  if (text === '') return { kind: 'none' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return badJson(`its stdout is not JSON: ${JSON.stringify(shortly(text, 80))} (write logs to stderr)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return badJson('its stdout is JSON but not an object');
  return readAnswer(value as Record<string, unknown>);
}

function badJson(reason: string): HookVerdict {
  return { kind: 'failed', detail: 'bad_json', reason };
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? shortly(v) : undefined;

/** The fields of a hook's JSON answer; the strictest of them counts. */
function readAnswer(o: Record<string, unknown>): HookVerdict {
  const message = text(o.systemMessage);
  const extra = message ? { message } : {};
  const found: HookVerdict[] = [];
  const specific = o.hookSpecificOutput;
  if (specific !== undefined) {
    if (typeof specific !== 'object' || specific === null)
      return badJson('hookSpecificOutput is not an object');
    const s = specific as Record<string, unknown>;
    if (
      s.updatedInput !== undefined ||
      (s.decision as Record<string, unknown> | undefined)?.updatedInput !== undefined
    )
      return badJson('it asked to change the call (updatedInput); warden does not run input a hook changed');
    if (s.permissionDecision !== undefined) {
      const d = s.permissionDecision;
      const reason = text(s.permissionDecisionReason);
      if (d === 'deny') found.push({ kind: 'deny', reason: reason ?? 'the hook denied it', ...extra });
      else if (d === 'ask' || d === 'allow') found.push({ kind: d, ...(reason ? { reason } : {}), ...extra });
      else return badJson(`permissionDecision ${JSON.stringify(d)} is not allow, deny or ask`);
    }
    if (s.decision !== undefined) {
      const d = s.decision as Record<string, unknown> | null;
      const behavior = typeof d === 'object' && d !== null ? d.behavior : undefined;
      const reason = text(d?.message);
      if (behavior === 'deny') found.push({ kind: 'deny', reason: reason ?? 'the hook denied it', ...extra });
      else if (behavior === 'allow') found.push({ kind: 'allow', ...(reason ? { reason } : {}), ...extra });
      else return badJson(`decision.behavior ${JSON.stringify(behavior)} is not allow or deny`);
    }
  }
  if (o.decision !== undefined) {
    const reason = text(o.reason);
    if (o.decision === 'block')
      found.push({ kind: 'deny', reason: reason ?? 'the hook blocked it', ...extra });
    else if (o.decision === 'approve') found.push({ kind: 'allow', ...(reason ? { reason } : {}), ...extra });
    else return badJson(`decision ${JSON.stringify(o.decision)} is not approve or block`);
  }
  if (o.continue === false)
    found.push({
      kind: 'deny',
      reason: text(o.stopReason) ?? 'the hook said stop (continue: false)',
      ...extra,
    });
  return strictest(found) ?? { kind: 'none', ...extra };
}

/** The strictest of several verdicts (the first among equals), or undefined for none. */
export function strictest(verdicts: readonly HookVerdict[]): HookVerdict | undefined {
  let pick: HookVerdict | undefined;
  for (const v of verdicts) if (!pick || STRICTNESS[v.kind] > STRICTNESS[pick.kind]) pick = v;
  return pick;
}
