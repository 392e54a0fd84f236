import type { z } from 'zod';
import { realSchema, zod } from '../lazy-zod';
import type { ToolSpec } from '../llm/types';
import type { AnyTool } from '../tools/types';

const cache = new WeakMap<AnyTool, ToolSpec>();
const internals = new WeakMap<AnyTool, readonly string[]>();

/**
 * The top-level arguments of a tool marked `.meta({ internal: true })`: warden's own callers may set
 * them, the model may not (the gate refuses a model's call that names one). None for a tool that
 * brings its own JSON Schema (MCP).
 */
export function internalFields(tool: AnyTool): readonly string[] {
  let names = internals.get(tool);
  if (!names) {
    const full = tool.parameters
      ? undefined
      : (zod().toJSONSchema(realSchema(tool.schema), { io: 'input', unrepresentable: 'any' }) as {
          properties?: Record<string, { internal?: unknown } | null>;
        });
    names = Object.entries(full?.properties ?? {})
      .filter(([, schema]) => schema?.internal === true)
      .map(([name]) => name);
    internals.set(tool, names);
  }
  return names;
}

/** Tools as offered to the model: name, description and a JSON Schema without noise. */
export function toolSpecs(tools: readonly AnyTool[]): ToolSpec[] {
  return tools.map((tool) => {
    let spec = cache.get(tool);
    if (!spec) {
      spec = {
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters ?? leanSchema(tool.schema),
      };
      cache.set(tool, spec);
    }
    return spec;
  });
}

// Validation-only keywords: the gate enforces them with zod, so the model need not read them.
const VALIDATION_ONLY = new Set([
  '$schema',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'pattern',
  'additionalProperties',
  'default',
]);

/** JSON Schema of a zod schema, without keywords that only cost request size (see VALIDATION_ONLY). */
function leanSchema(schema: z.ZodType): Record<string, unknown> {
  return strip(zod().toJSONSchema(realSchema(schema), { io: 'input', unrepresentable: 'any' })) as Record<
    string,
    unknown
  >;
}

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !VALIDATION_ONLY.has(key))
      .map(([key, value]) => [key, key === 'properties' ? stripProperties(value) : strip(value)]),
  );
}

/**
 * Property names are data, not keywords: a tool may have an argument called `pattern`. An argument
 * marked `.meta({ internal: true })` is for warden's own callers (the loop's escalation names its
 * trigger) and is not offered to the model.
 */
function stripProperties(properties: unknown): unknown {
  if (!properties || typeof properties !== 'object') return properties;
  return Object.fromEntries(
    Object.entries(properties)
      .filter(([, schema]) => (schema as { internal?: unknown } | null)?.internal !== true)
      .map(([name, schema]) => [name, strip(schema)]),
  );
}
