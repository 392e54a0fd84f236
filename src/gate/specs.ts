import { z } from 'zod';
import type { ToolSpec } from '../llm/types';
import type { AnyTool } from '../tools/types';

const cache = new WeakMap<AnyTool, ToolSpec>();

/** Tools as offered to the model: name, description and a JSON Schema without noise. */
export function toolSpecs(tools: readonly AnyTool[]): ToolSpec[] {
  return tools.map((tool) => {
    let spec = cache.get(tool);
    if (!spec) {
      spec = { name: tool.name, description: tool.description, parameters: tool.parameters ?? leanSchema(tool.schema) };
      cache.set(tool, spec);
    }
    return spec;
  });
}

/** JSON Schema of a zod schema, without `$schema` and other keys that only cost request size. */
function leanSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  if (json.additionalProperties === false) delete json.additionalProperties;
  return json;
}
