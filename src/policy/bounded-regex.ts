import { createRequire } from 'node:module';

type Re2 = { test(input: string): boolean };
type Re2Class = new (pattern: string, flags: string) => Re2;

/** A compiled pattern: a pure test, linear in the input's length. */
export type PatternTest = (input: string) => boolean;
export type CompiledPattern = { ok: true; test: PatternTest } | { ok: false; error: string };

const MAX_PATTERN_LENGTH = 2000;

let engine: Re2Class | undefined;

/**
 * RE2 (compiled to wasm): matching time grows linearly with the input whatever the pattern, so a
 * pattern such as `^(a+)+$` from a policy file cannot freeze the gate. Loaded on first use (about
 * 50 ms), so a session whose rules have no patterns never pays for it.
 */
function re2(): Re2Class {
  engine ??= (createRequire(import.meta.url)('re2-wasm') as { RE2: Re2Class }).RE2;
  return engine;
}

/**
 * Compiles a regular expression from a policy or config file with RE2. JavaScript syntax is
 * accepted where RE2 has the same meaning; back-references and look-around have no linear-time
 * form, so a pattern using them is an error the caller reports with the file and the rule.
 * Contract: never throws.
 */
export function compileBoundedRegex(pattern: string): CompiledPattern {
  if (pattern.length > MAX_PATTERN_LENGTH)
    return { ok: false, error: `longer than ${MAX_PATTERN_LENGTH} characters` };
  try {
    const re = new (re2())(pattern, 'u');
    return { ok: true, test: (input) => re.test(input) };
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    // re2-wasm says "Invalid regular expression: /p/u: <why>"; keep the why.
    const why = message.replace(/^Invalid regular expression: \/.*\/u: /s, '');
    return {
      ok: false,
      error: `not a valid regular expression for the linear-time engine (${why}); back-references and look-around are not supported`,
    };
  }
}

/** Whether RE2 is loaded (for tests and start-up figures). */
export function boundedEngineLoaded(): boolean {
  return engine !== undefined;
}
