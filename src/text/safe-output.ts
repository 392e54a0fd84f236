import { hasUnsafeText, STRAY_SELECTOR_SOURCE, sanitizeText } from './sanitize';

/** What a guarded stream does to a string: show unsafe characters, or escape them inside JSON. */
export type OutputKind = 'text' | 'json';

/** The same characters `sanitizeText` acts on, as they appear inside JSON text. */
const UNSAFE_IN_JSON = new RegExp(
  '[\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180e\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2060-\\u2064' +
    '\\u2066-\\u206f\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb]|\\udb40[\\udc00-\\udc7f]|\\ud82f[\\udca0-\\udca3]|\\ud834[\\udd73-\\udd7a]|' +
    STRAY_SELECTOR_SOURCE,
  'g',
);

/**
 * JSON text with the characters JSON.stringify leaves raw (DEL, C1 controls such as the 8-bit
 * CSI, bidi and invisible characters) written as `\uXXXX` escapes: the same data for a program
 * that parses it, nothing a terminal acts on for a person who reads it. C0 controls are
 * already escaped by JSON.stringify. Contract: `json` must be JSON.stringify output (such
 * characters only occur inside its strings); the result parses to the same value.
 */
export function escapeJsonText(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (ch) => {
    let out = '';
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}

/** One JSON line, safe for a terminal (see `escapeJsonText`). */
export function safeJsonLine(value: unknown): string {
  return `${escapeJsonText(JSON.stringify(value) ?? 'null')}\n`;
}

/** A terminal-safe form of one chunk written to a guarded stream. */
export function safeChunk(text: string, kind: OutputKind): string {
  if (kind === 'json') {
    // Escape what JSON leaves raw; a line that is not JSON still gets no raw control through.
    const escaped = escapeJsonText(text);
    return hasUnsafeText(escaped) ? sanitizeText(escaped, 'exact') : escaped;
  }
  return sanitizeText(text);
}

/**
 * `stream` whose `write` passes every chunk through `safeChunk` first; everything else is the
 * stream's own. Wrapping twice is harmless (the second pass finds nothing to change).
 * Contract: never throws more than the stream's own `write` does.
 */
export function guardStream<S extends NodeJS.WritableStream>(stream: S, kind: OutputKind): S {
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') {
        return (chunk: unknown, ...rest: unknown[]) => {
          const text =
            typeof chunk === 'string'
              ? chunk
              : chunk instanceof Uint8Array
                ? Buffer.from(chunk).toString('utf8')
                : undefined;
          const write = target.write as (...args: unknown[]) => boolean;
          return write.call(target, text === undefined ? chunk : safeChunk(text, kind), ...rest);
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** stdout and stderr guarded: `json` escapes stdout's JSON lines, stderr is always text. */
export function guardIo<T extends { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }>(
  io: T,
  stdout: OutputKind = 'text',
): T {
  return { ...io, stdout: guardStream(io.stdout, stdout), stderr: guardStream(io.stderr, 'text') };
}
