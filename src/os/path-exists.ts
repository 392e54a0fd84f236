import { lstatSync } from 'node:fs';

/** Whether anything is at `path` — a file, a folder, a link (not followed), a socket. Never throws. */
export function pathExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
