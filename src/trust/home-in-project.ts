import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * When `$WARDEN_HOME` lies inside the project (say `WARDEN_HOME=./.wh`), warden's own file tools
 * could reach it through the fence; this is the anchored protected-path pattern (`/.wh/`) that
 * makes every write there a high-risk card. Undefined when the home is outside the project.
 */
export function homePatternInProject(home: string, root: string): string | undefined {
  const rel = relative(real(root), real(home));
  if (rel === '' || isAbsolute(rel) || rel.split(sep)[0] === '..') return rel === '' ? '/' : undefined;
  return `/${rel.split(sep).join('/')}/`;
}

function real(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}
