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
