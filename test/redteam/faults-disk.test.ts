/**
 * Red team, faults: the disk says no. A WARDEN_HOME that is full (a small tmpfs, at start or filled
 * mid-session), a checkpoint store that cannot be written, a read-only project root. What must hold:
 * no audit line, no execution (every call refused with audit_unavailable and the person told); no
 * checkpoint, no change (file-changing calls refused with checkpoint_failed, reads still run); a
 * session file that cannot be saved is a warning, never a crash; a write to a read-only root is an
 * error that says so. Real mounts (root with CAP_SYS_ADMIN, as in CI); elsewhere the cases skip.
 */
import * as fs from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectCheckpointDir } from '../../src/agent/checkpoints';
import { readAudit } from '../../src/audit/reader';
import type { CoreEvent } from '../../src/protocol';
import { NO_MOUNT, bindReadOnly, canMount, fillDisk, mountTmpfs, unmount } from '../audit/mounts';
import type { FakeStep } from '../helpers/fake-openai';
import { type SessionHarness, startSession } from '../helpers/session-harness';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

/** A temp folder with a tmpfs of `kb` KB on it, unmounted and removed after the test. */
function tmpfs(kb: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'warden-rtf-disk-'));
  mountTmpfs(dir, kb);
  cleanups.push(() => {
    unmount(dir);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** The WARDEN_HOME's policy lets commands run without asking: only the fault can stop them. */
function allowCommands(home: string): string {
  writeFileSync(
    join(home, 'policy.json'),
    JSON.stringify({ rules: [{ tool: 'execute_command', decision: 'allow' }] }),
  );
  return home;
}

async function session(
  script: FakeStep[],
  home?: string,
  files = { 'a.txt': 'A\n' },
): Promise<SessionHarness> {
  const h = await startSession(script, {
    approver: false,
    files,
    // auto-edit: a write needs no person, so only the fault can stop it.
    session: { mode: 'auto-edit', sandbox: 'off', ...(home ? { home: allowCommands(home) } : {}) },
  });
  cleanups.push(() => h.dispose());
  return h;
}

const calls = (...c: { name: string; args: Record<string, unknown> }[]): FakeStep => ({ toolCalls: c });
const read = { name: 'read_file', args: { path: 'a.txt' } };
const write = (path: string) => ({ name: 'write_file', args: { path, content: 'new\n' } });
const run = (cmd: string) => ({ name: 'execute_command', args: { command: cmd } });

const finished = (events: CoreEvent[]) =>
  events.flatMap((e) =>
    e.type === 'tool_finished' ? [[e.tool, e.result.status, e.result.reason ?? ''] as const] : [],
  );
const notices = (events: CoreEvent[], level: string) =>
  events.flatMap((e) => (e.type === 'notice' && e.level === level ? [e.text] : []));

describe.skipIf(!canMount)('a full WARDEN_HOME', () => {
  it('at start: the session starts, says it cannot save or audit; every call is refused (audit_unavailable), nothing runs', async () => {
    const home = allowCommands(tmpfs(256));
    fillDisk(home);
    const h = await session([calls(read, write('b.txt'), run('touch c.txt')), { text: 'Could not.' }], home);
    expect((await h.session.run('go')).status).toBe('done');
    expect(finished(h.events)).toEqual([
      ['read_file', 'error', expect.stringMatching(/^audit_unavailable: .*ENOSPC.*nothing ran/)],
      ['write_file', 'error', expect.stringMatching(/^audit_unavailable: /)],
      ['execute_command', 'error', expect.stringMatching(/^audit_unavailable: /)],
    ]);
    expect(existsSync(join(h.root, 'b.txt'))).toBe(false);
    expect(existsSync(join(h.root, 'c.txt'))).toBe(false);
    // The person is told, once each: the log and the session file.
    expect(notices(h.events, 'error')).toEqual([
      expect.stringMatching(/audit log cannot be written.*audit_unavailable/),
    ]);
    expect(notices(h.events, 'warn')).toContainEqual(expect.stringMatching(/cannot be saved.*ENOSPC/));
    expect(h.session.client.snapshot().auditUnavailable?.error).toMatch(/ENOSPC/);
    // The model was told too: the refusals reached it as tool results.
    const last = h.fake.requests.at(-1)?.body.messages ?? [];
    expect(
      last.filter((m) => m.role === 'tool').every((m) => /audit_unavailable/.test(String(m.content))),
    ).toBe(true);
  });

  it('filled mid-session: the call before runs and is on the record; the calls after are refused; freeing space lets the next run', async () => {
    const home = tmpfs(2048);
    let fillNow = (): void => {};
    const h = await session(
      [
        calls(write('b.txt')),
        () => {
          // The disk fills between two steps of the same turn.
          fillNow();
          // Its audit line is longer than what is left of the log's last page (a tmpfs fills by pages).
          return {
            toolCalls: [
              { name: 'write_file', args: { path: 'c.txt', content: 'x'.repeat(9000) } },
              run('touch d.txt'),
            ],
          };
        },
        { text: 'Could not.' },
        calls(write('e.txt')),
        { text: 'Done.' },
      ],
      home,
    );
    fillNow = () => fillDisk(home);
    await h.session.run('go');
    expect(existsSync(join(h.root, 'b.txt'))).toBe(true);
    expect(existsSync(join(h.root, 'c.txt'))).toBe(false);
    expect(existsSync(join(h.root, 'd.txt'))).toBe(false);
    expect(finished(h.events).map(([tool, status, reason]) => [tool, status, reason.split(':')[0]])).toEqual([
      ['write_file', 'executed', ''],
      ['write_file', 'error', 'audit_unavailable'],
      ['execute_command', 'error', 'audit_unavailable'],
    ]);
    rmSync(join(home, 'filler'));
    // The writer notices by itself; a new turn then runs (the probe may need a moment: the next call waits on it).
    await expect
      .poll(() => h.session.client.snapshot().auditUnavailable, { timeout: 10_000, interval: 50 })
      .toBeUndefined();
    await h.session.run('again');
    expect(existsSync(join(h.root, 'e.txt'))).toBe(true);
    const lines = readAudit(join(home, 'audit')).filter((r) => r.tool === 'write_file');
    // Every call that ran has its decision and its outcome; the refused ones left nothing half-written.
    expect(
      lines.map((r) => [r.args && (r.args as { path: string }).path, r.phase, r.outcome ?? null]),
    ).toEqual([
      ['b.txt', 'decision', null],
      ['b.txt', 'outcome', 'executed'],
      ['e.txt', 'decision', null],
      ['e.txt', 'outcome', 'executed'],
    ]);
  });
});

describe('checkpoints cannot be taken: no checkpoint, no change', () => {
  it('a file where the checkpoint folder should be: the session starts; writes and commands are refused (checkpoint_failed), reads run', async () => {
    const home = mkdtempSync(join(tmpdir(), 'warden-rtf-home-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    writeFileSync(join(home, 'checkpoints'), 'not a folder');
    const h = await session([calls(read, write('b.txt'), run('touch c.txt')), { text: 'Could not.' }], home);
    await h.session.run('go');
    expect(finished(h.events)).toEqual([
      ['read_file', 'executed', ''],
      [
        'write_file',
        'error',
        expect.stringMatching(/^checkpoint_failed: no checkpoint could be taken .*nothing ran\.$/),
      ],
      ['execute_command', 'error', expect.stringMatching(/^checkpoint_failed: /)],
    ]);
    expect(existsSync(join(h.root, 'b.txt'))).toBe(false);
    expect(existsSync(join(h.root, 'c.txt'))).toBe(false);
    // On the record: the refusal is an outcome of its own, not an execution.
    expect(
      readAudit(join(home, 'audit')).map((r) => [
        r.tool,
        r.phase,
        r.outcome ?? null,
        (r.reason ?? '').split(':')[0],
      ]),
    ).toEqual([
      ['read_file', 'decision', null, ''],
      ['read_file', 'outcome', 'executed', ''],
      ['write_file', 'decision', null, ''],
      ['write_file', 'outcome', 'error', 'checkpoint_failed'],
      ['execute_command', 'decision', null, ''],
      ['execute_command', 'outcome', 'error', 'checkpoint_failed'],
    ]);
  });

  it.skipIf(!canMount)(
    'the shadow repository on a full disk (audit fine): the write is refused, the read runs, the file is unchanged',
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'warden-rtf-home-'));
      cleanups.push(() => rmSync(home, { recursive: true, force: true }));
      const h = await session([calls(read, write('a.txt')), { text: 'Could not.' }], home);
      const dir = projectCheckpointDir(home, h.root);
      mkdirSync(dir, { recursive: true });
      mountTmpfs(dir, 64);
      cleanups.push(() => unmount(dir));
      fillDisk(dir);
      await h.session.run('go');
      expect(finished(h.events)).toEqual([
        ['read_file', 'executed', ''],
        ['write_file', 'error', expect.stringMatching(/^checkpoint_failed: /)],
      ]);
      expect(fs.readFileSync(join(h.root, 'a.txt'), 'utf8')).toBe('A\n');
    },
  );
});

describe.skipIf(!canMount)('a read-only project root', () => {
  it('write_file fails with an error that names the read-only file system; nothing is left in the project', async () => {
    const h = await session([calls(write('b.txt'), write('a.txt')), { text: 'Could not.' }]);
    bindReadOnly(h.root);
    cleanups.push(() => unmount(h.root));
    await h.session.run('go');
    expect(finished(h.events)).toEqual([
      ['write_file', 'error', expect.stringMatching(/b\.txt.*read-only file system/)],
      ['write_file', 'error', expect.stringMatching(/a\.txt.*original is unchanged.*read-only file system/)],
    ]);
    expect(fs.readdirSync(h.root)).toEqual(['a.txt']);
    expect(fs.readFileSync(join(h.root, 'a.txt'), 'utf8')).toBe('A\n');
  });
});

describe.skipIf(canMount)('mounts', () => {
  it.skip(NO_MOUNT, () => {});
});
