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
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ok: false, error: `${tool.name}: the arguments are not valid JSON (${why}).` };
    }
  }
  const result = tool.schema.safeParse(value);
  if (result.success) return { ok: true, args: result.data };
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'arguments';
    return `${field}: ${issue.message.replace(/^Invalid input: /, '')}`;
  });
  return { ok: false, error: `${tool.name}: invalid arguments — ${problems.join('; ')}.` };
}
