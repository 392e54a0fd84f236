/**
 * `npm install` on Node 20 prints no engine warning: every package the lockfile installs (and the
 * project itself) declares engines that admit Node 20. A package that drops Node 20 fails here,
 * naming it, before anyone's install warns.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The Node 20 release line's version the project is installed on (its last minor, 20.19 and later). */
const NODE_20 = '20.19.0';

type Version = [number, number, number];

const parse = (v: string): Version | undefined => {
  const m = /^v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?/.exec(v.trim());
  if (!m) return undefined;
  const n = (s: string | undefined) => (s === undefined || /[xX*]/.test(s) ? 0 : Number(s));
  return [Number(m[1]), n(m[2]), n(m[3])];
};
const cmp = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** How many of major, minor, patch a partial version names (`20` → 1, `20.19` → 2). */
const parts = (v: string): number =>
  v
    .trim()
    .replace(/^v/, '')
    .split('.')
    .filter((p) => /^\d+$/.test(p)).length;

/** One comparator (`>=20.19.0`, `^20`, `~1.2`, `20.x`, `*`) against `version`. */
function admits(version: Version, comparator: string): boolean {
  const m = /^(>=|<=|>|<|\^|~|=)?\s*(.*)$/.exec(comparator.trim());
  const op = m?.[1] ?? '';
  const text = m?.[2] ?? '';
  if (text === '' || text === '*' || /^[xX]$/.test(text)) return true;
  const bound = parse(text);
  if (!bound) throw new Error(`cannot read the engines comparator ${comparator}`);
  const c = cmp(version, bound);
  if (op === '>=') return c >= 0;
  if (op === '>') return c > 0;
  if (op === '<=') return c <= 0;
  if (op === '<') return c < 0;
  const named = parts(text);
  const upper: Version =
    op === '^'
      ? bound[0] > 0 || named === 1
        ? [bound[0] + 1, 0, 0]
        : [0, bound[1] + 1, 0]
      : op === '~'
        ? named === 1
          ? [bound[0] + 1, 0, 0]
          : [bound[0], bound[1] + 1, 0]
        : named === 1
          ? [bound[0] + 1, 0, 0]
          : named === 2
            ? [bound[0], bound[1] + 1, 0]
            : [bound[0], bound[1], bound[2] + 1];
  return c >= 0 && cmp(version, upper) < 0;
}

/** Whether `version` satisfies an npm range (`a b` all of, `a || b` any of, `a - b` between). */
export function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  if (!v) throw new Error(`not a version: ${version}`);
  return range.split('||').some((alternative) => {
    const [, low, high] = /^\s*(\S+)\s+-\s+(\S+)\s*$/.exec(alternative) ?? [];
    // A partial upper bound takes in its whole line (`18 - 20` is `>=18.0.0 <21.0.0`).
    if (low !== undefined && high !== undefined)
      return admits(v, `>=${low}`) && admits(v, parts(high) < 3 ? high : `<=${high}`);
    const comparators = alternative
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .trim()
      .split(/\s+/);
    return comparators.every((c) => admits(v, c));
  });
}

const root = join(import.meta.dirname, '..');
type LockEntry = { version?: string; engines?: Record<string, string> | string[] };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

describe('engines', () => {
  it.each([
    ['>=20', true],
    ['>= 20', true],
    ['^20.19.0 || >=22.12.0', true],
    ['^20.0.0 || ^22.0.0 || >=24.0.0', true],
    ['>=22.0.0', false],
    ['^18 || ^20 || >= 21', true],
    ['^12.20.0 || ^14.13.1 || >=16.0.0', true],
    ['^20.20.0', false],
    ['>=18 <20', false],
    ['18 - 20', true],
    ['~20.18', false],
    ['20.x', true],
    ['*', true],
  ])('range %s admits Node 20.19: %s', (range, expected) => {
    expect(satisfies(NODE_20, range)).toBe(expected);
  });

  it('every package the lockfile installs, and the project, admits Node 20', () => {
    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      // Old lockfiles wrote engines as a list of `node >=x` strings; npm reads the object form.
      const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (node !== undefined && !satisfies(NODE_20, node))
        refused.push(`${path || 'the project'}@${entry.version ?? ''}: node ${node}`);
    }
    expect(refused).toEqual([]);
    const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(satisfies(NODE_20, own.engines.node)).toBe(true);
  });
});
