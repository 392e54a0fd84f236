/** Compact JSON for one line; never throws (cycles and BigInt fall back to String). */
export function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Pretty JSON (two-space indent) for editors and detail views; never throws, as `compactJson`. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
