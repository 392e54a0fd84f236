/** Small shared facts of the sandbox's modules: what a mask is, and containment by path segments. */
import { isAbsolute, relative, sep } from 'node:path';

/** A path hidden inside the sandbox: an empty read-only folder or file in its place. */
export type SandboxMask = { kind: 'dir' | 'file'; path: string };

/** True when `path` is `folder` or inside it (by path segments, never by string prefix). */
export function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
