import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** What warden keeps in its home; protected when the home is the project folder itself. */
const HOME_ENTRIES = [
  '/policy.json',
  '/config.json',
  '/trust.json',
  '/audit/',
  '/checkpoints/',
  '/sessions/',
];

/**
 * When `$WARDEN_HOME` lies inside the project (say `WARDEN_HOME=./.wh`), warden's own file tools
 * could reach it through the fence; these are the anchored protected-path patterns (`/.wh/`)
 * that make every write there a high-risk card. Empty when the home is outside the project.
 */
export function homePatternsInProject(home: string, root: string): string[] {
  const rel = relative(real(root), real(home));
  if (rel === '') return HOME_ENTRIES;
  if (isAbsolute(rel) || rel.split(sep)[0] === '..') return [];
  return [`/${rel.split(sep).join('/')}/`];
}

/** What of warden's home holds other projects' records: sessions, audit, checkpoints, trust. */
const RECORDS = ['audit', 'checkpoints', 'sessions', 'trust.json'];

/**
 * The paths no tool may read or write (the fence's `hidden`): the whole of `$WARDEN_HOME`, or, when
 * warden runs in its home itself, the records in it (sessions, audit, checkpoints, trust).
 */
export function homeHiddenPaths(home: string, root: string): string[] {
  const h = real(home);
  return h === real(root) ? RECORDS.map((name) => join(h, name)) : [h];
}

function real(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}
