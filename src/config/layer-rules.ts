/**
 * How the layers combine for the fields with a rule of their own (load.ts merges the rest, strongest
 * layer first): hooks in order, escalation thresholds the lowest, paths under the person's home.
 */
import { join, resolve } from 'node:path';
import type { HookEntry, HookEventName, HooksConfig } from './hooks-schema';
import { type ConfigFile, ESCALATION_DEFAULTS } from './schema';

/** The managed config's hooks, then the person's (each event's entries in that order). */
export function hooksOf(managed: HooksConfig | undefined, user: HooksConfig | undefined): HooksConfig {
  if (!managed) return user ?? {};
  const out: HooksConfig = { ...user };
  for (const [event, entries] of Object.entries(managed) as [HookEventName, HookEntry[]][])
    out[event] = [...entries, ...(user?.[event] ?? [])];
  return out;
}

/** `~/x` under `home`; anything else made absolute. */
export function expandHome(path: string, home: string): string {
  return path.startsWith('~/') ? join(home, path.slice(2)) : resolve(path);
}

/**
 * The lower of the managed file's and the user's thresholds (else the default), lowered by the
 * project's: each may make an agent stop sooner, never later than another says.
 */
export function escalationOf(
  managed: ConfigFile['escalation'],
  user: ConfigFile['escalation'],
  project: ConfigFile['escalation'],
): { failures: number; rejections: number } {
  const pick = (key: 'failures' | 'rejections'): number => {
    const own = [managed?.[key], user?.[key]].filter((n): n is number => n !== undefined);
    const base = own.length > 0 ? Math.min(...own) : ESCALATION_DEFAULTS[key];
    return Math.min(base, project?.[key] ?? Number.POSITIVE_INFINITY);
  };
  return { failures: pick('failures'), rejections: pick('rejections') };
}
