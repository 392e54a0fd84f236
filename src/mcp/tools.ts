import { z } from 'zod';
import type { AnyTool, ToolOutput } from '../tools/types';
import { mcpToolName } from './names';

/** Calls one tool on the server by its own (unsanitised) name. */
export type McpToolCaller = (
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<ToolOutput>;

const MAX_DESCRIPTION = 2_000;
/**
 * Every tool's name, description and schema go with every model request. A server listing 10 000
 * tools, or one tool with a 10 MB schema, made each request megabytes (and past the 128 tools most
 * endpoints accept, so every request failed): what one server may add is bounded, and a person is
 * told what was left out.
 */
export const MAX_MCP_TOOLS = 500;
export const MAX_MCP_SCHEMA_CHARS = 100_000;

const descriptor = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
});

/**
 * Wraps a server's tools as warden tools named `mcp__<server>__<tool>`, carrying the server's JSON
 * Schema as `parameters` and a zod schema built from it for validation.
 * Contract: never throws; a tool with a malformed description or an unusable schema is skipped
 * and named in `warnings`.
 */
export function buildMcpTools(
  server: string,
  remote: unknown[],
  call: McpToolCaller,
): { tools: AnyTool[]; warnings: string[] } {
  const tools: AnyTool[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  if (remote.length > MAX_MCP_TOOLS)
    warnings.push(
      `MCP server "${server}" lists ${remote.length} tools; only the first ${MAX_MCP_TOOLS} are offered to the model.`,
    );
  for (const raw of remote.slice(0, MAX_MCP_TOOLS)) {
    const parsed = descriptor.safeParse(raw);
    if (!parsed.success) {
      warnings.push(
        `Skipped a tool from MCP server "${server}" with a malformed description (${nameOf(raw)}).`,
      );
      continue;
    }
    const { name: remoteName, description, inputSchema } = parsed.data;
    const name = mcpToolName(server, remoteName);
    if (seen.has(name)) {
      warnings.push(
        `Skipped tool "${remoteName}" from MCP server "${server}": its name collides with another tool as ${name}.`,
      );
      continue;
    }
    const size = JSON.stringify(inputSchema).length;
    if (size > MAX_MCP_SCHEMA_CHARS) {
      warnings.push(
        `Skipped tool "${remoteName}" from MCP server "${server}": its input schema is ${size} characters, over the ${MAX_MCP_SCHEMA_CHARS} limit (it would go with every request).`,
      );
      continue;
    }
    const schema = schemaFrom(inputSchema);
    if ('error' in schema) {
      warnings.push(
        `Skipped tool "${remoteName}" from MCP server "${server}": its input schema is invalid (${schema.error}).`,
      );
      continue;
    }
    seen.add(name);
    tools.push({
      name,
      description: clip(`[MCP server "${server}"] ${description ?? remoteName}`),
      schema: schema.zod,
      parameters: inputSchema,
      // Every MCP tool asks by default; the policy decides, never the server's own hints.
      kind: 'execute',
      reversible: false,
      // A server's own hints are not trusted: any MCP tool may change files, so each is checkpointed.
      changesFiles: true,
      execute: (args: unknown, ctx) => call(remoteName, isRecord(args) ? args : {}, ctx.signal),
    });
  }
  return { tools, warnings };
}

function schemaFrom(inputSchema: Record<string, unknown>): { zod: z.ZodType } | { error: string } {
  if (inputSchema.type !== 'object')
    return { error: `its type is ${JSON.stringify(inputSchema.type)}, not "object"` };
  try {
    const checked = withoutPatterns(inputSchema) as Parameters<typeof z.fromJSONSchema>[0];
    return { zod: z.fromJSONSchema(checked) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** Keywords whose value is data (compared, never a schema). */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
/** Keywords whose value maps names (of properties or definitions) to schemas. */
const NAMED_SCHEMAS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * The schema warden checks arguments with: the server's, without `pattern` and `patternProperties`.
 * They run on JavaScript's backtracking engine, synchronously, inside the gate: a pattern such as
 * `^(a+)+$` (or a common e-mail pattern) and 40 characters the model chose would freeze every agent,
 * the UI and every timer for hours. The server checks its own patterns; the model still reads them.
 * Where `patternProperties` go, so does `additionalProperties`, or the names they allowed would be refused.
 */
function withoutPatterns(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutPatterns);
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  const dropExtra = schema.patternProperties !== undefined;
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'pattern' && typeof value === 'string') || key === 'patternProperties') continue;
    if (key === 'additionalProperties' && dropExtra) continue;
    if (DATA_KEYWORDS.has(key)) out[key] = value;
    else if (NAMED_SCHEMAS.has(key) && isRecord(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutPatterns(sub)]));
    else out[key] = withoutPatterns(value);
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nameOf(raw: unknown): string {
  const name = isRecord(raw) ? raw.name : undefined;
  return typeof name === 'string' ? `"${name}"` : 'no name';
}

function clip(text: string): string {
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION)}…` : text;
}
