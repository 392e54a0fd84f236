/**
 * `warden key`: the public half of your answer key, made if need be, in the form `approvers/NAME.pub`
 * takes — what is printed registers as the same key id.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadApprovers } from '../../src/answers/approvers';
import { runKeyCli } from '../../src/answers/key-cli';
import { readKey } from '../../src/answers/signing-key';
import { parseArgs } from '../../src/config/args';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function run(argv: string[], home: string) {
  const out = { stdout: '', stderr: '' };
  const code = runKeyCli(argv, {
    stdout: { write: (t: string) => (out.stdout += t) },
    stderr: { write: (t: string) => (out.stderr += t) },
    home,
    env: { WARDEN_SYSTEM_DIR: '/srv/warden' },
  });
  return { code, ...out };
}

describe('warden key', () => {
  it('is its own verb', () => {
    expect(parseArgs(['key', '--json'])).toEqual({ ok: true, args: { kind: 'key', argv: ['--json'] } });
  });

  it('makes the key once, prints its public PEM on stdout and its id on stderr; registered, it is that key', () => {
    const home = mkdtempSync(join(tmpdir(), 'warden-key-'));
    dirs.push(home);
    expect(readKey(home)).toBeUndefined();
    const first = run([], home);
    expect(first.code).toBe(0);
    const id = readKey(home)?.keyId ?? '';
    expect(first.stdout).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n$/);
    expect(first.stderr).toContain(`key id ${id}`);
    expect(first.stderr).toContain('/srv/warden/approvers/NAME.pub');
    expect(run([], home).stdout).toBe(first.stdout);
    const approvers = join(home, 'registered');
    mkdirSync(approvers);
    writeFileSync(join(approvers, 'alice.pub'), first.stdout);
    expect(loadApprovers([approvers]).get(id)?.name).toBe('alice');
    expect(JSON.parse(run(['--json'], home).stdout)).toMatchObject({ keyId: id, publicKey: first.stdout });
    expect(run(['--force'], home).code).toBe(2);
  });
});
