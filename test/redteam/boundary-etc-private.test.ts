/**
 * Red team: what a command can READ of /etc. The view shows /etc (programs need it) with a list of
 * known secrets hidden; a host key or a runner's token file that the list does not name was readable
 * wherever warden runs as root (the owner's bits let it). Now every entry the system keeps private
 * (others may not read it) is masked, whatever its name. Twins: world-readable files still read.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateEntries } from '../../src/tools/exec/host-private';
import { ETC_SECRETS } from '../../src/tools/exec/sandbox-view';
import { type Boundary, bwrap, makeBoundary } from './boundary-harness';

describe('privateEntries: what the system keeps from others', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'warden-etc-'));
    mkdirSync(join(dir, 'ssh'));
    writeFileSync(join(dir, 'ssh', 'ssh_host_ed25519_key'), 'PRIVATE');
    chmodSync(join(dir, 'ssh', 'ssh_host_ed25519_key'), 0o600);
    writeFileSync(join(dir, 'ssh', 'ssh_host_ed25519_key.pub'), 'public');
    chmodSync(join(dir, 'ssh', 'ssh_host_ed25519_key.pub'), 0o644);
    mkdirSync(join(dir, 'private'));
    writeFileSync(join(dir, 'private', 'key.pem'), 'PRIVATE');
    chmodSync(join(dir, 'private'), 0o710);
    mkdirSync(join(dir, 'listable-not-enterable'));
    chmodSync(join(dir, 'listable-not-enterable'), 0o754);
    writeFileSync(join(dir, 'hosts'), '127.0.0.1 localhost');
    chmodSync(join(dir, 'hosts'), 0o644);
    mkdirSync(join(dir, 'runner'));
    writeFileSync(join(dir, 'runner', 'config.toml'), 'token = "x"');
    chmodSync(join(dir, 'runner', 'config.toml'), 0o640);
  });
  afterAll(() => {
    chmodSync(join(dir, 'private'), 0o755);
    chmodSync(join(dir, 'listable-not-enterable'), 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  it('names unreadable files and closed folders, not what others may read', () => {
    const found = privateEntries(dir).sort();
    expect(found).toEqual(
      [
        join(dir, 'listable-not-enterable'),
        join(dir, 'private'),
        join(dir, 'runner', 'config.toml'),
        join(dir, 'ssh', 'ssh_host_ed25519_key'),
      ].sort(),
    );
  });

  it('a missing folder is private (nothing under it is shown as readable)', () => {
    expect(privateEntries(join(dir, 'absent'))).toEqual([join(dir, 'absent')]);
  });
});

/** An entry of the host's /etc that is private and not already on the named list, if there is one. */
function unlistedPrivateFile(): string | undefined {
  return privateEntries('/etc').find((p) => {
    if (ETC_SECRETS.some((s) => p === s || p.startsWith(`${s}/`))) return false;
    try {
      return readFileSync(p).length > 0;
    } catch {
      return false;
    }
  });
}

describe.skipIf(!bwrap)('a sandboxed command does not read /etc’s private files', () => {
  let b: Boundary;
  beforeAll(() => {
    b = makeBoundary();
  });
  afterAll(() => b.cleanup());

  it.skipIf(unlistedPrivateFile() === undefined)(
    'a private file the named list does not foresee reads empty',
    async () => {
      const path = unlistedPrivateFile() as string;
      const r = await b.run(`wc -c < ${path} 2>&1`);
      expect(r.text.split('\n')[0]?.trim()).toMatch(/^0$|Permission denied/);
    },
  );

  it('a world-readable file of /etc still reads (the twin)', async () => {
    const r = await b.run('head -c 9 /etc/passwd');
    expect(r.text).toContain('root');
  });
});
