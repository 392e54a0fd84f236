import { isSecretName } from './secret-names';
import { redactedMark, redactString } from './secret-patterns';
import { isReference } from './secret-values';
import { redactCommand } from './redact-command';

export { isSecretName } from './secret-names';
export { redactedMark, redactString } from './secret-patterns';
export { redactCommand } from './redact-command';

/** Deeper than this is summarised; audit arguments are never legitimately this nested. */
const MAX_DEPTH = 32;

export type RedactOptions = {
  /** Strings longer than this (after redaction) are cut, saying how much was dropped. */
  maxStringLength?: number;
};

/**
 * Deep-copies `value` into plain JSON-like data with secrets replaced by `[REDACTED:<kind>]`:
 * values under secret-looking keys (`token`, `api_key`, `password`, `authorization`, …) become
 * `[REDACTED:key]`, and every string is scanned for known token shapes.
 * Contract: never throws and never mutates its input; cycles become `[Circular]`; the copy shares
 * no object with the input (a caller may change its own data afterwards).
 */
export function redact(value: unknown, options: RedactOptions = {}): unknown {
  const max = options.maxStringLength ?? Number.POSITIVE_INFINITY;
  // Most records hold nothing to hide: checked without allocating, then copied as they are.
  if (alreadyClean(value, max)) return plainCopy(value);
  return redactCopy(value, max);
}

/**
 * `JSON.stringify(redact(value, options))` without the copy when nothing in `value` changes: a
 * record that is already clean is serialised as it is. Contract: the same text as that expression
 * (a value is read twice, so a getter must return the same each time; one that throws takes the
 * full copy, as before); never throws for what `redact` accepts; never mutates its input.
 */
export function redactedJson(value: unknown, options: RedactOptions = {}): string {
  const max = options.maxStringLength ?? Number.POSITIVE_INFINITY;
  return JSON.stringify(alreadyClean(value, max) ? value : redactCopy(value, max));
}

/**
 * What `redact` would give and its JSON, without the copy when nothing in `value` changes: a value
 * with nothing to hide is returned as it is. For a caller that built `value` for this and hands it on
 * unchanged (the audit writer's records, shown in the sidebar); otherwise use `redact`.
 * Contract: `json` is `JSON.stringify(redact(value, options))`; `value` holds the same data as
 * `redact(value, options)` (a clean null-prototype object stays one).
 */
export function redactWithJson(
  value: unknown,
  options: RedactOptions = {},
): { value: unknown; json: string } {
  const max = options.maxStringLength ?? Number.POSITIVE_INFINITY;
  const safe = alreadyClean(value, max) ? value : redactCopy(value, max);
  return { value: safe, json: JSON.stringify(safe) };
}

/**
 * JSON text — a tool call's arguments, a result as the model reads it — redacted as the data it
 * encodes. Read as text, a secret sits behind `\n` escapes where no line rule sees it (`password: x`
 * on a line of its own, `DB_PASSWORD=x` after a newline); parsed, every string is itself. The answer
 * is the value written again (`JSON.stringify`: one form, so a repeated key cannot keep a copy the
 * parse dropped), redacted when anything in it is secret; text that is not JSON is redacted as text
 * and as what its escapes say (`redactMalformedJson`). Contract: never throws; JSON text with nothing to hide is returned as it is when it is
 * already in that form (the results warden writes itself).
 */
export function redactJsonText(text: string): string {
  const short = text.length <= JSON_MEMO_MAX_LENGTH;
  const known = short ? jsonMemo.get(text) : undefined;
  if (known !== undefined) return known;
  let out: string;
  try {
    const value: unknown = JSON.parse(text);
    const json = JSON.stringify(
      alreadyClean(value, Number.POSITIVE_INFINITY) ? value : redactCopy(value, Number.POSITIVE_INFINITY),
    );
    out = json === text ? text : json;
  } catch {
    out = redactMalformedJson(text);
  }
  if (short) {
    if (jsonMemo.size >= 4096) jsonMemo.clear();
    jsonMemo.set(text, out);
  }
  return out;
}

/**
 * Text that is not JSON (arguments cut short, a model's malformed call) redacted as text — and read
 * with its JSON escapes undone too: when that reading holds a secret, it is what is kept, redacted
 * (the exact characters are lost; the secret is not kept behind a `\n`).
 */
function redactMalformedJson(text: string): string {
  const asText = redactString(text);
  if (!text.includes('\\')) return asText;
  const unescaped = text.replace(/\\(?:u([0-9a-fA-F]{4})|(.))/g, (m, hex: string | undefined, ch: string) =>
    hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : (JSON_ESCAPES[ch] ?? m),
  );
  const redacted = redactString(unescaped);
  return redacted === unescaped ? asText : redacted;
}

const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Short JSON texts repeat (the same arguments in a burst of calls); their redacted form is remembered. */
const jsonMemo = new Map<string, string>();
const JSON_MEMO_MAX_LENGTH = 256;

/**
 * A command line (`args.command` of execute_command, any string under a `command` key) is redacted
 * word by word as bash reads it (redact-command.ts): quoting must not hide a secret.
 */
const COMMAND_KEY = 'command';

function redactCopy(value: unknown, max: number): unknown {
  const str = (s: string, asCommand = false): string => {
    const head = s.length > max + CUT_MARGIN ? s.slice(0, max + CUT_MARGIN) : s;
    const clean = asCommand ? redactCommand(head) : redactString(head);
    if (clean.length <= max && s.length <= max + CUT_MARGIN) return clean;
    const dropped = s.length > max + CUT_MARGIN ? s.length - max : clean.length - max;
    return `${clean.slice(0, max)}…[${dropped} more chars]`;
  };
  return copy(value, { seen: new WeakSet(), str }, 0);
}

/**
 * How far past a cut redaction still reads, so a secret that starts before the cut is seen
 * whole (a PEM key, a long JWT) and is never kept as its first half.
 */
const CUT_MARGIN = 16_384;

/**
 * The first `max` characters of `text` with secrets redacted — redacted BEFORE the cut, so a
 * token the cut would split is hidden whole instead of leaving its first half. A cut text ends in
 * `…` (within the `max`): the writer redacts the record again, and a stand-in the cut broke
 * (`…EXAMPLEEXAMPLE` cut to `…EXAMPLEEXA`) reads as cut, not as a new token. Reads at most
 * `max` + 16 KiB, however long `text` is. Contract: never throws.
 */
export function redactThenCut(text: string, max: number): string {
  const clean = redactString(text.length > max + CUT_MARGIN ? text.slice(0, max + CUT_MARGIN) : text);
  return clean.length > max ? `${clean.slice(0, Math.max(0, max - 1))}…` : clean;
}

/**
 * True when redacting `value` would change nothing: only strings no rule touches (and not over
 * `max`), finite nesting of arrays and plain objects, no secret-named key holding a value, no key
 * redaction would rewrite, no `__proto__` key, no `toJSON`, Map, Set, Error, Date, buffer, bigint,
 * function or symbol (those take the full copy, which knows them). Cycles and depth past the copy's
 * limit are not clean. A getter that throws makes it not clean.
 */
function alreadyClean(value: unknown, max: number): boolean {
  try {
    return clean(value, max, 0);
  } catch {
    return false;
  }
}

function clean(value: unknown, max: number, depth: number): boolean {
  if (typeof value === 'string') return value.length <= max && redactString(value) === value;
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean')
    return true;
  if (typeof value !== 'object' || depth >= MAX_DEPTH - 1) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || 'toJSON' in value) return false;
    for (let i = 0; i < value.length; i++) {
      if (!clean(value[i], max, depth + 1)) return false;
      if (i > 0 && flagValue(value[i - 1], value[i])) return false;
    }
    return true;
  }
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) return false;
  const record = value as Record<string, unknown>;
  // `for…in`, not Object.keys: no array per object. It also sees inherited enumerable keys, which
  // only makes the check stricter; what is written is still the own keys (JSON.stringify).
  for (const key in record) {
    const item = record[key];
    const kind = keyKind(key);
    if (kind === KEY_CHANGED || (kind === KEY_SECRET && holdsSecret(item))) return false;
    if (key === COMMAND_KEY && typeof item === 'string') {
      if (item.length > max || redactCommand(item) !== item) return false;
    } else if (!clean(item, max, depth + 1)) return false;
  }
  return true;
}

/** A copy of a value `clean` accepted: plain objects and arrays all the way down, nothing to check. */
function plainCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plainCopy);
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) out[key] = plainCopy(record[key]);
  return out;
}

type Walk = { seen: WeakSet<object>; str: (s: string, asCommand?: boolean) => string };

function copy(value: unknown, walk: Walk, depth: number): unknown {
  const { seen } = walk;
  if (typeof value === 'string') return walk.str(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Too deep]';
  seen.add(value);
  try {
    return copyObject(value, walk, depth);
  } catch {
    // A throwing getter or toJSON must not take the audit line down with it.
    return '[Unreadable]';
  } finally {
    seen.delete(value);
  }
}

function copyObject(value: object, walk: Walk, depth: number): unknown {
  if (Array.isArray(value))
    return value.map((item, i) =>
      i > 0 && flagValue(value[i - 1], item) ? redactedMark('flag') : copy(item, walk, depth + 1),
    );
  if (value instanceof Error) return walk.str(`${value.name}: ${value.message}`);
  if (value instanceof Map) return copy(Object.fromEntries(value), walk, depth + 1);
  if (value instanceof Set) return copy([...value], walk, depth + 1);
  if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return copy(toJSON.call(value), walk, depth + 1);
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    // Keys are strings too: a map keyed by token must not leak it.
    const safe =
      isSecretName(key) && holdsSecret(item)
        ? redactedMark('key')
        : key === COMMAND_KEY && typeof item === 'string'
          ? walk.str(item, true)
          : copy(item, walk, depth + 1);
    const outKey = redactKey(key);
    // An own `__proto__` key (JSON.parse makes them) must stay data, not become a prototype.
    if (outKey === '__proto__')
      Object.defineProperty(out, outKey, {
        value: safe,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[outKey] = safe;
  }
  return out;
}

/** A key redaction leaves as it is; one that names a secret (its value is hidden unless empty); one it changes (or `__proto__`). */
const KEY_PLAIN = 0;
const KEY_SECRET = 1;
const KEY_CHANGED = 2;
/** Keys repeat on every record: what `clean` must know of one is judged once (one lookup, not two). */
const keyKinds = new Map<string, number>();
function keyKind(key: string): number {
  let kind = keyKinds.get(key);
  if (kind === undefined) {
    kind =
      key === '__proto__' || redactKey(key) !== key
        ? KEY_CHANGED
        : isSecretName(key)
          ? KEY_SECRET
          : KEY_PLAIN;
    if (keyKinds.size >= 4096) keyKinds.clear();
    keyKinds.set(key, kind);
  }
  return kind;
}

/** Keys repeat on every record; memoise their (almost always unchanged) redacted form. */
const keyMemo = new Map<string, string>();
function redactKey(key: string): string {
  let out = keyMemo.get(key);
  if (out === undefined) {
    out = redactString(key);
    if (keyMemo.size >= 4096) keyMemo.clear();
    keyMemo.set(key, out);
  }
  return out;
}

/**
 * Whether `item` is the value of the flag before it in an argument list (`["--password", "x"]`, an
 * MCP tool's argv): each string alone reads as no secret, so the value was kept (red-team finding).
 */
function flagValue(previous: unknown, item: unknown): boolean {
  return (
    typeof previous === 'string' &&
    typeof item === 'string' &&
    previous.startsWith('-') &&
    !previous.includes('=') &&
    !item.startsWith('-') &&
    isSecretName(previous) &&
    !isReference(item)
  );
}

/** `null`, booleans and empty strings under a secret key hide nothing; keep them readable. */
function holdsSecret(item: unknown): boolean {
  return !(item === null || item === undefined || typeof item === 'boolean' || item === '');
}
