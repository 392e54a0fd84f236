import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

/**
 * The `assets/` folder, found by walking up from this module: works from src/ (tests, tsx) and
 * from the bundled dist/warden.js alike.
 * Contract: throws a clear error when the install is broken (no assets folder above).
 */
export function assetsDir(): string {
  if (found) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'assets', 'system-prompt.md'))) return (found = join(dir, 'assets'));
    const parent = dirname(dir);
    if (parent === dir) throw new Error('warden cannot find its assets/ folder; reinstall it.');
    dir = parent;
  }
}
