/**
 * JSON with object keys sorted, so equal arguments hash equally whatever their key order.
 * Same text as `JSON.stringify` with a key-sorting replacer (toJSON, undefined, NaN and bigint
 * included), written out because the replacer form costs a microsecond on every gated call.
 */
export function canonicalJson(value: unknown): string {
  return write(value, '') as string;
}

function write(value: unknown, key: string): string | undefined {
  let v = value;
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
    v = (v as { toJSON: (k: string) => unknown }).toJSON(key);
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? JSON.stringify(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object': {
      if (v === null) return 'null';
      // Boxed primitives serialise as their value, as JSON.stringify does.
      if (v instanceof String || v instanceof Number || v instanceof Boolean) return JSON.stringify(v);
      if (Array.isArray(v)) {
        let out = '[';
        for (let i = 0; i < v.length; i++) out += `${i ? ',' : ''}${write(v[i], String(i)) ?? 'null'}`;
        return `${out}]`;
      }
      const record = v as Record<string, unknown>;
      const keys = sortedKeys(record);
      let out = '{';
      let first = true;
      for (const k of keys) {
        const item = write(record[k], k);
        if (item === undefined) continue;
        out += `${first ? '' : ','}${JSON.stringify(k)}:${item}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}

/**
 * Keys in code-unit order, except that array-index keys ("0", "2", "10") come first in numeric
 * order: an object rebuilt from sorted entries orders them so, and the hashes stay the same.
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  // Object.keys lists array-index keys first, ascending; only the rest needs sorting.
  let indexKeys = 0;
  while (indexKeys < keys.length && ARRAY_INDEX.test(keys[indexKeys] as string)) indexKeys++;
  if (indexKeys === 0) return keys.sort(byCodeUnit);
  return [...keys.slice(0, indexKeys), ...keys.slice(indexKeys).sort(byCodeUnit)];
}

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
