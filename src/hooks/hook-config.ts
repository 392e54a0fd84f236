/**
 * The hooks of a config file, in either shape Claude Code users write them — flat `{ matcher, command,
 * timeout }` or nested `{ matcher, hooks: [{ type: "command", command, timeout }] }` — as one list of
 * runnable hooks, each with its matcher compiled and a name for the audit.
 */
import { HOOK_EVENTS, type HookEventName, type HooksConfig } from '../config/hooks-schema';
import { compileMatcher, type NameMatch } from './hook-matcher';

/** Whose hook: the person's own config (`$WARDEN_HOME/config.json`) or a trusted project's. */
export type HookSource = 'user' | 'project';

export type CompiledHook = {
  event: HookEventName;
  /** How the audit names it (`approver: "hook:<name>"`): its `name`, else its script's file name. */
  name: string;
  /** A shell command (`/bin/sh -c`), as in Claude Code. */
  command: string;
  timeoutMs: number;
  matches: NameMatch;
  source: HookSource;
  /** The config file that names it. */
  file: string;
};

/** Claude Code's default: a hook may run a minute. */
export const DEFAULT_HOOK_TIMEOUT_SEC = 60;

/**
 * Every hook `config` names, in the file's order (event by event). Contract: never throws; a matcher
 * the linear-time engine cannot run is an error naming the file and the entry.
 */
export function compileHooks(
  config: HooksConfig | undefined,
  source: HookSource,
  file: string,
): { ok: true; hooks: CompiledHook[] } | { ok: false; error: string } {
  const hooks: CompiledHook[] = [];
  const taken = new Map<string, number>();
  for (const event of HOOK_EVENTS) {
    for (const [i, entry] of (config?.[event] ?? []).entries()) {
      const matcher = compileMatcher(entry.matcher);
      if (!matcher.ok) return { ok: false, error: `${file}: hooks.${event}[${i}].matcher: ${matcher.error}` };
      const commands = 'hooks' in entry ? entry.hooks : [entry];
      for (const h of commands) {
        const base = h.name ?? nameOf(h.command);
        const seen = (taken.get(base) ?? 0) + 1;
        taken.set(base, seen);
        hooks.push({
          event,
          name: seen === 1 ? base : `${base}#${seen}`,
          command: h.command,
          timeoutMs: (h.timeout ?? DEFAULT_HOOK_TIMEOUT_SEC) * 1000,
          matches: matcher.match,
          source,
          file,
        });
      }
    }
  }
  return { ok: true, hooks };
}

/**
 * A hook's name from its command: the file name of the first word with a script's extension
 * (`/usr/bin/python3 ~/hooks/guard.py` → `guard.py`), else of the first path, else the first word.
 */
export function nameOf(command: string): string {
  const words = command
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/^['"]|['"]$/g, ''));
  const script =
    words.find((w) => /\.[A-Za-z][A-Za-z0-9]{0,4}$/.test(w)) ??
    words.find((w) => w.includes('/')) ??
    words[0] ??
    'hook';
  const file = script.split('/').filter(Boolean).pop() ?? 'hook';
  const clean = file.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 64);
  return /^[A-Za-z0-9]/.test(clean) ? clean : `hook${clean}`.slice(0, 64);
}
