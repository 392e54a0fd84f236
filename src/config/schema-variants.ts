/**
 * A config field that takes one of a few shapes (a server by command or by URL, the sandbox as a
 * mode or an object) is validated as the one variant its value's shape picks, so an error names
 * the field that is wrong rather than "no union member matched". zod sees such a field as a
 * transform of `unknown`; the variants are kept here so the JSON Schema and the key hints can
 * still describe it.
 */
import type { z as Z } from 'zod';
import { realSchema } from '../lazy-zod';

const VARIANTS = new WeakMap<object, readonly Z.ZodType[]>();

/**
 * A schema that validates a value as `pick(value)`, one of `variants`, and copies that variant's
 * issues as its own. Contract: the result is exactly the picked variant's output.
 */
export function pickedVariant<V extends Z.ZodType>(
  z: typeof Z,
  variants: readonly V[],
  pick: (value: unknown) => V,
): Z.ZodType<Z.output<V>, unknown> {
  const schema = z.unknown().transform((value, ctx): Z.output<V> => {
    const parsed = pick(value).safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, input: undefined });
    return z.NEVER;
  });
  VARIANTS.set(schema, variants);
  return schema;
}

/** The variants of a schema made by `pickedVariant`, or undefined for any other schema. */
export function variantsOf(schema: Z.ZodType): readonly Z.ZodType[] | undefined {
  return VARIANTS.get(realSchema(schema));
}

type Def = { type: string; innerType?: Z.ZodType; valueType?: Z.ZodType; element?: Z.ZodType };

/** The schema a value at `path` inside `root` is validated by (optional and nullable looked through), if any. */
function schemaAt(root: Z.ZodType, path: readonly PropertyKey[]): Z.ZodType | undefined {
  let at: Z.ZodType | undefined = unwrap(root);
  for (const key of path) {
    if (!at) return undefined;
    const def = at._zod.def as unknown as Def;
    if (def.type === 'object') at = (at as unknown as Z.ZodObject).shape[String(key)];
    else if (def.type === 'record') at = def.valueType;
    else if (def.type === 'array') at = def.element;
    else at = undefined;
    at = at && unwrap(at);
  }
  return at;
}

function unwrap(schema: Z.ZodType): Z.ZodType {
  let at = realSchema(schema);
  for (let def = at._zod.def as unknown as Def; def.type === 'optional' || def.type === 'nullable'; ) {
    at = realSchema(def.innerType as Z.ZodType);
    def = at._zod.def as unknown as Def;
  }
  return at;
}

/**
 * The keys an object at `path` inside `root` may have, for "did you mean" hints: its shape's keys, or
 * the union of its variants' keys; none when no object lives there.
 */
export function knownKeysAt(root: Z.ZodType, path: readonly PropertyKey[]): string[] {
  const at = schemaAt(root, path);
  if (!at) return [];
  const objects = (variantsOf(at) ?? [at]).map(unwrap).filter((s) => s._zod.def.type === 'object');
  return [...new Set(objects.flatMap((s) => Object.keys((s as unknown as Z.ZodObject).shape)))];
}
