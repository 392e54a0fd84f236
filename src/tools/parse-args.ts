import type { z } from 'zod';
import type { ToolDefinition } from './types';

export type ParsedArgs<T> = { ok: true; args: T } | { ok: false; error: string };

/**
 * Validates a tool call's raw arguments (an object, or the JSON text a model sent) with the tool's schema.
 * Contract: never throws; invalid JSON is an error, never treated as `{}`; the error names each bad field,
 * e.g. `path: expected string, received number`.
 */
export function parseToolArgs<S extends z.ZodType>(
  tool: ToolDefinition<S>,
  raw: unknown,
): ParsedArgs<z.infer<S>> {
  const value = argsValue(tool, raw);
  return value.ok ? validateArgs(tool, value.args) : value;
}

/** The arguments as a value: the JSON a model sent parsed, anything else as it is. Contract: never throws. */
export function argsValue(tool: Pick<ToolDefinition, 'name'>, raw: unknown): ParsedArgs<unknown> {
  if (typeof raw !== 'string') return { ok: true, args: raw };
  try {
    return { ok: true, args: JSON.parse(raw) };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `${tool.name}: the arguments are not valid JSON (${why}).` };
  }
}

/** `value` checked by the tool's schema, each bad field named. Contract: never throws. */
export function validateArgs<S extends z.ZodType>(
  tool: ToolDefinition<S>,
  value: unknown,
): ParsedArgs<z.infer<S>> {
  const result = tool.schema.safeParse(value);
  if (result.success) return { ok: true, args: result.data };
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'arguments';
    return `${field}: ${issue.message.replace(/^Invalid input: /, '')}`;
  });
  return { ok: false, error: `${tool.name}: invalid arguments — ${problems.join('; ')}.` };
}
