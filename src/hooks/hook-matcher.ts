import { compileBoundedRegex } from '../policy/bounded-regex';

/** Which names a hook's matcher takes: tried on Claude Code's tool name and on warden's own. */
export type NameMatch = (names: readonly string[]) => boolean;

/**
 * A matcher as Claude Code reads it: absent, `""` or `"*"` takes every name; letters, digits, `_` and
 * `|` only (`"Edit|Write"`) are exact names; anything else is a regular expression searched in the
 * name (`"mcp__github__.*"`, `"Notebook.*"`), run on the linear-time engine (RE2), so a pattern such as
 * `(a+)+$` cannot freeze the gate. Contract: never throws; a pattern RE2 cannot run is an error.
 */
export function compileMatcher(
  matcher: string | undefined,
): { ok: true; match: NameMatch } | { ok: false; error: string } {
  const pattern = matcher?.trim() ?? '';
  if (pattern === '' || pattern === '*') return { ok: true, match: () => true };
  if (/^[A-Za-z0-9_|]+$/.test(pattern)) {
    const names = new Set(pattern.split('|').filter(Boolean));
    return { ok: true, match: (candidates) => candidates.some((n) => names.has(n)) };
  }
  const compiled = compileBoundedRegex(pattern);
  if (!compiled.ok) return { ok: false, error: compiled.error };
  return { ok: true, match: (candidates) => candidates.some((n) => compiled.test(n)) };
}
