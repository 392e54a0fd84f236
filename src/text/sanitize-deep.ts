import { hasUnsafeText, type SanitizeMode, sanitizeText } from './sanitize';

/** Deeper than this is summarised: the core's state is never nested this far, model JSON may be. */
const MAX_DEPTH = 64;
const TOO_DEEP = '⟨nested too deep to show⟩';

/**
 * `value` with every string in it — object keys too — passed through `sanitizeText`. Structure is
 * shared: an object or array none of whose strings changes comes back as the same object, so a
 * UI comparing by identity renders again only when something changed.
 * Contract: never mutates its input. Plain objects and arrays are walked; class instances
 * (Date, Map…) are returned as they are — the protocol carries plain data only.
 */
export function sanitizeDeep<T>(value: T, mode: SanitizeMode = 'display'): T {
  return walk(value, mode, 0) as T;
}

/**
 * Long strings are judged once: a UI snapshot holds the same transcript strings each time, and
 * scanning megabytes per frame would cost more than the frame. Strings are immutable, so a cached
 * verdict can never go stale; the cache is bounded and cleared when full.
 */
const CACHE_MIN_LENGTH = 256;
const CACHE_MAX_ENTRIES = 20_000;
const cache: Record<SanitizeMode, Map<string, string>> = { display: new Map(), exact: new Map() };

function safeString(text: string, mode: SanitizeMode): string {
  if (text.length < CACHE_MIN_LENGTH) return hasUnsafeText(text) ? sanitizeText(text, mode) : text;
  const seen = cache[mode];
  let out = seen.get(text);
  if (out === undefined) {
    out = hasUnsafeText(text) ? sanitizeText(text, mode) : text;
    if (seen.size >= CACHE_MAX_ENTRIES) seen.clear();
    seen.set(text, out);
  }
  return out;
}

/** Keys repeat on every entry and event: each is judged once (bounded; strings are immutable). */
const keys: Record<SanitizeMode, Map<string, string>> = { display: new Map(), exact: new Map() };
function keyMemo(key: string, mode: SanitizeMode): string {
  const known = keys[mode];
  let out = known.get(key);
  if (out === undefined) {
    out = hasUnsafeText(key) ? sanitizeText(key, mode) : key;
    if (known.size >= 4096) known.clear();
    known.set(key, out);
  }
  return out;
}

function walk(value: unknown, mode: SanitizeMode, depth: number): unknown {
  if (typeof value === 'string') return safeString(value, mode);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const safe = walk(item, mode, depth + 1);
      if (safe !== item && copy === undefined) copy = value.slice(0, i);
      if (copy !== undefined) copy.push(safe);
    }
    if (copy === undefined) return value;
    return copy;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Record<string, unknown> | undefined;
  // Keys, not entries: an entries array allocates a pair per property of every object of every
  // event, which a burst of thousands of calls paid for in garbage collection (profiled).
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = record[key];
    const safeKey = keyMemo(key, mode);
    const safe = walk(item, mode, depth + 1);
    if ((safe !== item || safeKey !== key) && copy === undefined) {
      copy = {};
      for (let j = 0; j < i; j++) define(copy, keys[j] as string, record[keys[j] as string]);
    }
    if (copy !== undefined) define(copy, safeKey, safe);
  }
  if (copy === undefined) return value;
  return copy;
}

/** An own `__proto__` key (JSON.parse makes them) stays data, never becomes a prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
