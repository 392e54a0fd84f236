/**
 * A session whose audit log cannot be written: the call fails closed, the state says so (what the
 * TUI's banner shows and headless exits on), and the state clears by itself once the log is
 * writable again — the next call runs.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readAudit } from '../../src/audit/reader';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const write = (path: string, content: string) => ({
  toolCalls: [{ name: 'write_file', args: { path, content } }],
});

describe('a session without a writable audit log', () => {
  it('refuses the call (audit_unavailable), says so in the state until the log is writable, then runs again', async () => {
    const home = mkdtempSync(join(tmpdir(), 'warden-home-'));
    writeFileSync(join(home, 'audit'), 'a file where the audit folder should be');
    h = await startSession(
      [write('a.txt', 'x'), { text: 'Could not.' }, write('b.txt', 'y'), { text: 'Done.' }],
      { approver: false, session: { home, mode: 'auto-edit' } },
    );
    const first = await h.session.run('write a');
    expect(first.status).toBe('done');
    const finished = h.events.find((e) => e.type === 'tool_finished');
    expect(finished).toMatchObject({
      result: { status: 'error', reason: expect.stringMatching(/^audit_unavailable: /) },
    });
    expect(existsSync(join(h.root, 'a.txt'))).toBe(false);
    expect(h.session.client.snapshot().auditUnavailable).toMatchObject({
      error: expect.stringMatching(/EEXIST|ENOTDIR|not a directory/i),
      since: expect.any(String),
    });
    expect(
      h.events
        .filter((e) => e.type === 'notice' && e.level === 'error')
        .map((e) => (e as { text: string }).text),
    ).toEqual([expect.stringMatching(/audit log cannot be written.*audit_unavailable/)]);

    rmSync(join(home, 'audit'));
    await vi.waitFor(() => expect(h?.session.client.snapshot().auditUnavailable).toBeUndefined(), {
      timeout: 10_000,
      interval: 50,
    });
    expect(h.events.some((e) => e.type === 'notice' && /can be written again/.test(e.text))).toBe(true);
    await h.session.run('write b');
    expect(existsSync(join(h.root, 'b.txt'))).toBe(true);
    expect(readAudit(join(home, 'audit')).map((r) => [r.tool, r.phase, r.outcome])).toEqual([
      ['write_file', 'decision', undefined],
      ['write_file', 'outcome', 'executed'],
    ]);
  });
});
