import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal arguments hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** sha256 of the canonical JSON of a call's arguments (hex, 32 characters kept). */
export function hashArgs(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args) ?? 'undefined').digest('hex').slice(0, 32);
}

/** sha256 of a file's bytes, or 'absent'. */
export function hashContent(content: Buffer | string | undefined): string {
  return content === undefined ? 'absent' : createHash('sha256').update(content).digest('hex').slice(0, 32);
}
