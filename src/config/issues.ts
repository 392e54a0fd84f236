import type { z } from 'zod';
import { ConfigFileSchema } from './schema';
import { knownKeysAt } from './schema-variants';

type PathKey = PropertyKey;

/** `mcpServers.github.command`, `protectedPaths[2]`, `mcpServers["my.server"]`; `(root)` for none. */
export function formatPath(path: readonly PathKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$-]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out === '' ? '(root)' : out;
}

function valueAt(root: unknown, path: readonly PathKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isInteger(value)) return `number ${value}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

const EXPECTED: Record<string, string> = { int: 'a whole number', record: 'object' };

function knownKeys(path: readonly PathKey[]): readonly string[] {
  return knownKeysAt(ConfigFileSchema, path);
}

/** The closest known key within two edits, for "did you mean". */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const key of candidates) {
    const distance = editDistance(word.toLowerCase(), key.toLowerCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}

/** Optimal-string-alignment distance: like Levenshtein, with a swap of neighbours costing 1. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * One line per problem, `<where>: <field path>: <what is wrong>`, e.g.
 * `/p/.warden/config.json: mcpServers.github.command: expected string, got number 5`.
 */
export function formatIssues(where: string, issues: readonly z.core.$ZodIssue[], input: unknown): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    const path = issue.path;
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          const hint = closest(key, knownKeys(path));
          lines.push(
            `${where}: ${formatPath([...path, key])}: unknown key${hint ? ` (did you mean "${hint}"?)` : ''}`,
          );
        }
        break;
      case 'invalid_type': {
        const value = valueAt(input, path);
        const expected = EXPECTED[issue.expected] ?? issue.expected;
        const got = value === undefined ? 'it is missing' : `got ${describe(value)}`;
        lines.push(`${where}: ${formatPath(path)}: expected ${expected}, ${got}`);
        break;
      }
      case 'invalid_value': {
        const values = issue.values.map((v) => JSON.stringify(v));
        lines.push(
          `${where}: ${formatPath(path)}: expected ${values.length === 1 ? '' : 'one of '}${values.join(', ')}`,
        );
        break;
      }
      case 'invalid_key': {
        const inner = issue.issues[0]?.message ?? issue.message;
        lines.push(`${where}: ${formatPath(path)}: invalid name: ${inner}`);
        break;
      }
      default:
        lines.push(`${where}: ${formatPath(path)}: ${issue.message}`);
    }
  }
  return lines;
}
