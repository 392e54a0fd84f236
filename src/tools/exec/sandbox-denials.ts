/**
 * Reads a sandboxed command's output for the protected paths it ran into ("Read-only file system",
 * "Device or resource busy"), so the result can tell the model which one and what to do instead.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { inside } from './sandbox-protect';

/** A protected path a command hit: `held` is the protected path itself, `path` what the command touched. */
export type ProtectedHit = { kind: 'read_only' | 'pinned'; path: string; held: string };

const DENIED = /Read-only file system|Device or resource busy|\bEROFS\b|\bEBUSY\b/;
// Paths in error lines: quoted ('x', "x", ‘x’, `x') or a word right before ": " (bash: x: Read-only…).
const QUOTED = /'([^'\n]+)'|"([^"\n]+)"|‘([^’\n]+)’|`([^'`\n]+)'/g;
const BEFORE_COLON = /(?<=^|\s)([^\s:'"‘’`]+):(?=\s)/g;
const WORD = /[^\s'"`<>|;&()]+/g;

/**
 * The protected paths (relative to the root) a command's denied writes point at; when the error lines
 * name none (sed -i renames a temp file), the protected paths the command text names.
 * Contract: never throws; empty when nothing in the output says a write was denied.
 */
export function protectedHits(
  output: string,
  command: string,
  root: string,
  cwd: string,
  mounts: { readOnly: readonly string[]; pinned: readonly string[] },
): ProtectedHit[] {
  const lines = output.split('\n').filter((line) => DENIED.test(line));
  if (lines.length === 0) return [];
  const hits: ProtectedHit[] = [];
  const add = (candidate: string) => {
    const abs = resolve(cwd, candidate);
    if (!inside(root, abs)) return;
    const held = mounts.readOnly.find((m) => inside(m, abs));
    const hit: ProtectedHit | undefined = held
      ? { kind: 'read_only', path: rel(root, abs), held: rel(root, held) }
      : mounts.pinned.includes(abs)
        ? {
            kind: 'pinned',
            path: rel(root, abs),
            held: rel(root, mounts.readOnly.find((m) => inside(abs, m)) ?? abs),
          }
        : undefined;
    if (hit && !hits.some((h) => h.path === hit.path)) hits.push(hit);
  };
  for (const line of lines) {
    for (const m of line.matchAll(QUOTED)) add((m[1] ?? m[2] ?? m[3] ?? m[4]) as string);
    for (const m of line.matchAll(BEFORE_COLON)) add(m[1] as string);
  }
  if (hits.length === 0) for (const m of command.matchAll(WORD)) if (!m[0].startsWith('-')) add(m[0]);
  return hits;
}

/** One line for the model: what it hit, and that only a person's approval lets a run write it. */
export function describeHits(hits: readonly ProtectedHit[]): string {
  const readOnly = hits.filter((h) => h.kind === 'read_only');
  const pinned = hits.filter((h) => h.kind === 'pinned');
  const parts: string[] = [];
  if (readOnly.length > 0) {
    const names = readOnly.map((h) => (h.path === h.held ? h.path : `${h.path} (in ${h.held})`)).join(', ');
    parts.push(`${names}: protected, read-only in the sandbox.`);
  }
  if (pinned.length > 0)
    parts.push(
      `${pinned.map((h) => h.path).join(', ')}: holds a protected path (${pinned.map((h) => h.held).join(', ')}), so it cannot be moved or removed.`,
    );
  parts.push(
    'A command may write a protected path only in a run a person approves with that path listed on the card (a redirect into it, git commit, npm install …); ask the person, or leave it alone.',
  );
  return parts.join(' ');
}

function rel(root: string, abs: string): string {
  const r = relative(root, abs);
  return isAbsolute(r) ? abs : r.split(sep).join('/');
}
