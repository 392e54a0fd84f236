import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The environment entry that keeps a spawned warden off this machine's managed folder
 * (`/etc/warden`): a folder that does not exist, so there is no managed layer unless a test
 * names one of its own. The global setup sets it for every worker; spawns that build their
 * environment from scratch spread this first.
 */
export function noManagedLayer(): { WARDEN_SYSTEM_DIR: string } {
  return { WARDEN_SYSTEM_DIR: process.env.WARDEN_SYSTEM_DIR ?? join(tmpdir(), 'no-managed-layer') };
}

/** A temp base with a home, a project (its `.warden/`) and a managed folder; the caller removes `base`. */
export function managedFolders(prefix: string): { base: string; home: string; root: string; system: string } {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const folders = {
    base,
    home: join(base, 'home'),
    root: join(base, 'project'),
    system: join(base, 'system'),
  };
  for (const dir of [folders.home, join(folders.root, '.warden'), folders.system])
    mkdirSync(dir, { recursive: true });
  return folders;
}

/** Writes `value` (JSON unless it is already text) to `path`. */
export const putFile = (path: string, value: unknown): void =>
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
