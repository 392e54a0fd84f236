import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * Temp folders for a test file: `temp(prefix)` makes one (its real path, so a /tmp symlink does not
 * differ from what the code under test resolves) and each is removed after its test.
 * Call at the top level of a test file.
 */
export function tempDirs(): (prefix: string) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    dirs.push(dir);
    return dir;
  };
}
