/**
 * What is written about the config files, generated from their zod schemas so a field is described
 * once: README's settings table and the JSON Schemas editors read for config.json and policy.json
 * (`assets/schema/`). scripts/config-docs.ts writes them (`generatedFiles`); a test holds the written
 * ones to these.
 */
import type { z } from 'zod';
import { realSchema, zod } from '../lazy-zod';
import { PolicyFileSchema } from '../policy/rules';
import { CONFIG_DEFAULTS, ConfigFileSchema } from './schema';
import { ENV_NAMES, FLAG_KEYS } from './load';
import { variantsOf } from './schema-variants';

/** What a field's `.meta()` says beyond JSON Schema's own words: the default as README shows it, in words. */
type FieldMeta = { description?: string; default?: unknown; shownDefault?: string };

/** Meta keys of ours that are no JSON Schema keywords: README reads them, the JSON Schema leaves them out. */
const OURS = new Set(['shownDefault']);

const DEFAULTS: Readonly<Record<string, unknown>> = CONFIG_DEFAULTS;

/** The README rows of config.json's fields, in the schema's order, as a Markdown table. */
export function configTable(): string {
  const shape = realSchema(ConfigFileSchema).shape as Record<string, z.ZodType>;
  const rows = Object.entries(shape)
    .filter(([key]) => key !== '$schema')
    .map(([key, schema]) => {
      const meta = (schema.meta() ?? {}) as FieldMeta;
      if (!meta.description) throw new Error(`config field ${key} has no description in its .meta()`);
      const env = (ENV_NAMES as Readonly<Record<string, string | undefined>>)[key];
      const flag = (FLAG_KEYS as readonly string[]).includes(key);
      const names = [env, key, flag ? `--${key}` : undefined].filter((n) => n !== undefined);
      const where = [env && 'env', 'config', flag && 'flag'].filter(Boolean).join(', ');
      return `| ${names.map((n) => `\`${n}\``).join(' / ')} | ${where} | ${shownDefault(key, meta)} | ${meta.description} |`;
    });
  return ['| setting | where | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

function shownDefault(key: string, meta: FieldMeta): string {
  if (meta.shownDefault) return meta.shownDefault;
  const value = DEFAULTS[key] ?? meta.default;
  if (value === undefined) return '—';
  if (typeof value === 'number') return String(value);
  return `\`${typeof value === 'string' ? value : spacedJson(value)}\``;
}

/** `{"failures": 3, "rejections": 2}`: JSON as a person writes it on one line. */
function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(', ')}]`;
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${spacedJson(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/** The JSON Schema of config.json: every field described, with its default; `$schema` allowed. */
export function configJsonSchema(): Record<string, unknown> {
  const schema = jsonSchemaOf(ConfigFileSchema);
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  for (const [key, value] of Object.entries(DEFAULTS))
    if (value !== undefined && properties[key]) properties[key] = { ...properties[key], default: value };
  return { ...schema, title: 'warden config.json' };
}

/** The JSON Schema of policy.json. */
export function policyJsonSchema(): Record<string, unknown> {
  return { ...jsonSchemaOf(PolicyFileSchema), title: 'warden policy.json' };
}

/**
 * zod's JSON Schema of what a file may hold (`io: 'input'`), with a field that picks its variant by
 * shape described as the variants it accepts (`anyOf`) rather than the `unknown` zod sees.
 */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const z = zod();
  const convert = (s: z.ZodType): Record<string, unknown> =>
    withoutOurs(
      z.toJSONSchema(realSchema(s), {
        io: 'input',
        unrepresentable: 'any',
        override: (ctx) => {
          const variants = variantsOf(ctx.zodSchema as unknown as z.ZodType);
          if (!variants) return;
          for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
          ctx.jsonSchema.anyOf = variants.map((v) => {
            const { $schema: _, ...inner } = convert(v);
            return inner;
          });
        },
      }) as Record<string, unknown>,
    );
  return convert(schema);
}

function withoutOurs(node: unknown): Record<string, unknown> {
  return strip(node) as Record<string, unknown>;
}

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !OURS.has(key))
      .map(([key, value]) => [key, key === 'properties' ? mapValues(value) : strip(value)]),
  );
}

/** Property names are data, not keywords: a field may be called like one of ours. */
function mapValues(properties: unknown): unknown {
  if (!properties || typeof properties !== 'object') return properties;
  return Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, strip(value)]));
}

export const TABLE_BEGIN =
  '<!-- config-table:begin (generated from src/config/schema.ts: npx tsx scripts/config-docs.ts) -->';
export const TABLE_END = '<!-- config-table:end -->';

/** A file (relative to the repository) and its wanted text given its current one. */
export type GeneratedFile = { path: string; render(current: string): string };

export function generatedFiles(): GeneratedFile[] {
  const json = (value: unknown) => () => `${JSON.stringify(value, null, 2)}\n`;
  return [
    { path: 'README.md', render: (current) => withTable(current, configTable()) },
    { path: 'assets/schema/config.schema.json', render: json(configJsonSchema()) },
    { path: 'assets/schema/policy.schema.json', render: json(policyJsonSchema()) },
  ];
}

/** `readme` with the text between the table markers replaced. Contract: throws when a marker is missing. */
export function withTable(readme: string, table: string): string {
  const begin = readme.indexOf(TABLE_BEGIN);
  const end = readme.indexOf(TABLE_END);
  if (begin < 0 || end < begin) throw new Error(`README.md has no ${TABLE_BEGIN} … ${TABLE_END} markers`);
  return `${readme.slice(0, begin + TABLE_BEGIN.length)}\n${table}\n${readme.slice(end)}`;
}
