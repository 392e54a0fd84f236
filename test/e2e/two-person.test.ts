/**
 * Two people for the highest risk, through the real binary in a terminal: the managed config says
 * every write_file card needs two approvals from two distinct identities. One approval leaves the
 * card waiting (the card says who approved); the same identity twice does not count, the requester as
 * the second does not, a key nobody registered is refused; a second registered identity runs it, and
 * the audit records both.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditLines } from '../helpers/audit-lines';
import { fakeModel, headlessWarden, tempPlaces, useCleanup } from '../helpers/headless-run';
import { ptyLaunches } from '../helpers/pty-launch';
import { runWarden } from '../helpers/run-warden';

const { launch } = ptyLaunches();
const later = useCleanup();

/** A managed folder whose config asks two people for every write_file card; `bob` and `carol` registered. */
function managedFolder(): { system: string; key: (name: string) => string } {
  const base = mkdtempSync(join(tmpdir(), 'warden-two-'));
  const system = join(base, 'system');
  mkdirSync(join(system, 'approvers'), { recursive: true });
  writeFileSync(join(system, 'config.json'), JSON.stringify({ twoPerson: { tools: ['write_file'] } }));
  const key = (name: string): string => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const file = join(base, `${name}.key`);
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), { mode: 0o600 });
    if (name !== 'mallory')
      writeFileSync(
        join(system, 'approvers', `${name}.pub`),
        publicKey.export({ type: 'spki', format: 'pem' }),
      );
    return file;
  };
  return { system, key };
}

async function waitingId(home: string): Promise<string> {
  const run = await runWarden(['pending', '--json'], { WARDEN_HOME: home });
  return JSON.parse(run.stdout.trim().split('\n')[0] ?? '{}').id as string;
}

const writeA = [{ toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'hi\n' } }] }];

describe('two people for one card', () => {
  it('you approve first; the same identity again, an unregistered key do not count; a registered second person runs it', async () => {
    const { system, key } = managedFolder();
    const [bob, mallory] = [key('bob'), key('mallory')];
    const { app, home, root } = await launch(writeA, {
      prompt: 'write a.txt',
      env: { WARDEN_SYSTEM_DIR: system },
    });
    await app.waitFor('needs two people');
    const id = await waitingId(home);
    await app.pressOnCard('y', 'needs a second person');
    expect(existsSync(join(root, 'a.txt'))).toBe(false);
    // The same identity (you, at the keyboard) once more: not counted.
    await app.pressOnCard('y', 'approved already');
    // From another terminal with your own key: you still, so not counted either.
    const own = await runWarden(['approve', id], { WARDEN_HOME: home });
    expect(own.code).toBe(1);
    expect(own.stderr).toContain('same_identity');
    const stranger = await runWarden(['approve', id, '--key', mallory], { WARDEN_HOME: home });
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain('unsigned');
    expect(existsSync(join(root, 'a.txt'))).toBe(false);

    const second = await runWarden(['approve', id, '--key', bob], { WARDEN_HOME: home });
    expect(second.code, second.stderr).toBe(0);
    await app.waitFor('All done.');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('hi\n');
    const lines = auditLines(home).filter((r) => r.tool === 'write_file');
    expect(lines.find((r) => r.partial === '1 of 2')).toMatchObject({
      phase: 'requested',
      decidedBy: { channel: 'tui' },
    });
    expect(lines.find((r) => r.phase === 'outcome')).toMatchObject({
      outcome: 'executed',
      approver: 'human',
      decidedBy: { channel: 'tui' },
      secondBy: { channel: 'cli', keyName: 'bob', keyId: expect.any(String) },
    });
  });

  it('another identity approves first; you as the second do not count, nor the same key twice; a third identity runs it', async () => {
    const { system, key } = managedFolder();
    const [bob, carol] = [key('bob'), key('carol')];
    const { app, home, root } = await launch(writeA, {
      prompt: 'write a.txt',
      env: { WARDEN_SYSTEM_DIR: system },
    });
    await app.waitFor('needs two people');
    const id = await waitingId(home);
    const first = await runWarden(['approve', id, '--key', bob], { WARDEN_HOME: home });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('first of two approvals');
    await app.waitFor('key bob');
    await app.pressOnCard('y', 'never the second');
    const again = await runWarden(['approve', id, '--key', bob], { WARDEN_HOME: home });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('same_identity');
    const own = await runWarden(['approve', id], { WARDEN_HOME: home });
    expect(own.code).toBe(1);
    expect(own.stderr).toContain('self_approval');
    expect(existsSync(join(root, 'a.txt'))).toBe(false);

    const second = await runWarden(['approve', id, '--key', carol], { WARDEN_HOME: home });
    expect(second.code, second.stderr).toBe(0);
    await app.waitFor('All done.');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('hi\n');
    const outcome = auditLines(home).find((r) => r.tool === 'write_file' && r.phase === 'outcome');
    expect(outcome).toMatchObject({
      outcome: 'executed',
      decidedBy: { channel: 'cli', keyName: 'bob' },
      secondBy: { channel: 'cli', keyName: 'carol' },
    });
  });

  it('a headless run parks the card; resumed with one approval it parks again, with two it runs', async () => {
    const { system, key } = managedFolder();
    const bob = key('bob');
    const at = tempPlaces(later, 'two-park');
    const env = { env: { WARDEN_SYSTEM_DIR: system } };
    const server = await fakeModel(later, writeA);
    const park = ['--on-ask', 'park', '--json', '-p', 'write a.txt'];
    const parked = await headlessWarden(at, server, park, env);
    expect(parked.code, parked.stderr).toBe(5);
    const result = JSON.parse(parked.stdout.trim().split('\n').at(-1) ?? '{}');
    const sessionId = result.sessionId as string;
    const first = await runWarden(['approve', result.parked[0].requestId], { WARDEN_HOME: at.home });
    expect(first.code, first.stderr).toBe(0);
    const once = await headlessWarden(at, server, ['--resume', sessionId, '--on-ask', 'park'], env);
    expect(once.code, once.stderr).toBe(5);
    expect(existsSync(join(at.root, 'a.txt'))).toBe(false);
    expect(auditLines(at.home).some((r) => r.partial === '1 of 2')).toBe(true);

    const again = /waiting for approval: (\S+)/.exec(once.stderr)?.[1] ?? '';
    for (const extra of [[], ['--key', bob]]) {
      const given = await runWarden(['approve', again, ...extra], { WARDEN_HOME: at.home });
      expect(given.code, given.stderr).toBe(0);
    }
    const resumed = await headlessWarden(at, server, ['--resume', sessionId], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(join(at.root, 'a.txt'), 'utf8')).toBe('hi\n');
    const outcome = auditLines(at.home)
      .filter((r) => r.tool === 'write_file' && r.phase === 'outcome')
      .at(-1);
    expect(outcome).toMatchObject({
      outcome: 'executed',
      decidedBy: { channel: 'cli' },
      secondBy: { channel: 'cli', keyName: 'bob' },
    });
  });
});
