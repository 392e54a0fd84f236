/**
 * Notifications: one when cards start waiting (not one per card of a burst), one shortly before a
 * waiting card expires, one at the main turn's end; the terminal's kind chosen from the environment;
 * the person's program given the notification as JSON on stdin, redacted; its failure said once and
 * nothing else changes.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notificationSequence } from '../../components/hooks/use-terminal-notify';
import type { CoreEvent } from '../../src/protocol';
import { createNotifier, terminalOf } from '../../src/session/notify';
import { makeRequest } from '../helpers/fake-core';

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function collect() {
  const events: CoreEvent[] = [];
  return { events, emit: (e: CoreEvent) => events.push(e) };
}
const notices = (events: CoreEvent[]) => events.flatMap((e) => (e.type === 'notify' ? [e] : []));

describe('terminalOf', () => {
  it.each([
    ['iTerm2', { TERM_PROGRAM: 'iTerm.app' }, 'osc9'],
    ['WezTerm', { TERM_PROGRAM: 'WezTerm' }, 'osc9'],
    ['Windows Terminal', { WT_SESSION: 'x' }, 'osc9'],
    ['a VTE terminal', { VTE_VERSION: '7200' }, 'osc777'],
    ['foot', { TERM: 'foot' }, 'osc777'],
    ['tmux (no passthrough): the bell', { TMUX: '/tmp/t', TERM_PROGRAM: 'iTerm.app' }, 'bell'],
    ['an unknown terminal', { TERM: 'xterm-256color' }, 'bell'],
  ])('auto in %s → %s', (_, env, terminal) => {
    expect(terminalOf('auto', env)).toBe(terminal);
  });

  it('a method other than auto is taken as it is', () => {
    expect(terminalOf('osc777', { TERM_PROGRAM: 'iTerm.app' })).toBe('osc777');
    expect(terminalOf('off', {})).toBe('off');
  });
});

describe('createNotifier', () => {
  it('one notification when cards start waiting; none for the second of a burst; again after the queue emptied', () => {
    const { events, emit } = collect();
    const n = createNotifier({ method: 'osc9', project: '/p', emit, env: {} });
    const a = makeRequest({ id: 'a' });
    const b = makeRequest({ id: 'b' });
    n.onEvent({ type: 'approval_requested', request: a });
    n.onEvent({ type: 'approval_requested', request: b });
    expect(notices(events)).toHaveLength(1);
    expect(notices(events)[0]).toMatchObject({
      terminal: 'osc9',
      notification: { kind: 'approval', requestId: 'a' },
    });
    for (const id of ['a', 'b'])
      n.onEvent({ type: 'approval_resolved', requestId: id, outcome: 'executed', approver: 'human' });
    n.onEvent({ type: 'approval_requested', request: makeRequest({ id: 'c' }) });
    expect(notices(events)).toHaveLength(2);
  });

  it('the main turn ends: a notification; a sub-agent turn ending: none', () => {
    const { events, emit } = collect();
    const n = createNotifier({ method: 'bell', project: '/p', emit, env: {} });
    n.onEvent({ type: 'turn_done', agentId: 'tester', text: 'sub done' });
    n.onEvent({ type: 'turn_done', agentId: 'main', text: 'All tests pass.' });
    expect(notices(events).map((e) => e.notification)).toEqual([
      { kind: 'turn_done', text: 'The turn ended: All tests pass.', project: '/p' },
    ]);
  });

  it('shortly before a waiting card expires it says so; a card answered before then says nothing more', () => {
    vi.useFakeTimers();
    const now = Date.now();
    const { events, emit } = collect();
    const n = createNotifier({ method: 'osc9', project: '/p', emit, env: {} });
    const card = (id: string) =>
      makeRequest({
        id,
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + 600_000).toISOString(),
      });
    n.onEvent({ type: 'approval_requested', request: card('a') });
    n.onEvent({ type: 'approval_requested', request: card('b') });
    n.onEvent({ type: 'approval_resolved', requestId: 'b', outcome: 'executed', approver: 'human' });
    vi.advanceTimersByTime(540_000 - 1);
    expect(notices(events).map((e) => e.notification.kind)).toEqual(['approval']);
    vi.advanceTimersByTime(1);
    expect(notices(events).map((e) => [e.notification.kind, e.notification.requestId])).toEqual([
      ['approval', 'a'],
      ['expiring', 'a'],
    ]);
    n.close();
  });

  it('off: nothing for the terminal', () => {
    const { events, emit } = collect();
    createNotifier({ method: 'off', project: '/p', emit, env: {} }).onEvent({
      type: 'approval_requested',
      request: makeRequest({ id: 'a' }),
    });
    expect(notices(events)).toEqual([]);
  });

  it("the person's program gets the notification as JSON on stdin, its secrets redacted, without warden's keys", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'warden-notify-'));
    dirs.push(dir);
    const out = join(dir, 'got.json');
    const script = join(dir, 'notify.sh');
    writeFileSync(script, `#!/bin/sh\nenv > "${out}.env"\ncat > "${out}"\n`);
    chmodSync(script, 0o755);
    const { emit } = collect();
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      OPENAI_API_KEY: 'sk-notify-must-not-see',
      NTFY_TOPIC: 'mine',
    };
    const n = createNotifier({ method: 'off', command: [script], project: '/p', emit, env });
    const request = makeRequest({
      id: 'r1',
      tool: 'execute_command',
      args: { command: 'curl -H "Authorization: Bearer Zq9Xw8Vv7Lk3Pm2Nb5Tc4Rd" https://x' },
    });
    n.onEvent({ type: 'approval_requested', request });
    await vi.waitFor(() => expect(existsSync(out) && readFileSync(out, 'utf8').endsWith('\n')).toBe(true));
    const got = JSON.parse(readFileSync(out, 'utf8'));
    expect(got).toMatchObject({ kind: 'approval', requestId: 'r1', tool: 'execute_command', project: '/p' });
    expect(JSON.stringify(got)).not.toContain('Zq9Xw8Vv7Lk3Pm2Nb5Tc4Rd');
    expect(got.call).toContain('[REDACTED');
    // It runs with the person's environment, less warden's secrets.
    const seen = readFileSync(`${out}.env`, 'utf8');
    expect(seen).toContain('NTFY_TOPIC=mine');
    expect(seen).not.toContain('sk-notify-must-not-see');
  });

  it('a program that fails is said once, as a warning, and changes nothing else', async () => {
    const { events, emit } = collect();
    const n = createNotifier({ method: 'off', command: ['/no/such/notifier'], project: '/p', emit, env: {} });
    n.onEvent({ type: 'turn_done', agentId: 'main', text: 'one' });
    n.onEvent({ type: 'turn_done', agentId: 'main', text: 'two' });
    await vi.waitFor(() => expect(events.some((e) => e.type === 'notice')).toBe(true));
    const warned = events.filter((e) => e.type === 'notice');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: 'warn', text: expect.stringMatching(/notify\.command failed/) });
  });
});

describe('notificationSequence', () => {
  const n = { kind: 'approval' as const, text: 'warden asks: write_file a.txt; then b', project: '/p' };
  it('OSC 9, OSC 777 (a ; would end its field), the bell', () => {
    expect(notificationSequence('osc9', n)).toBe('\u001b]9;warden asks: write_file a.txt; then b\u0007');
    expect(notificationSequence('osc777', n)).toBe(
      '\u001b]777;notify;warden;warden asks: write_file a.txt, then b\u0007',
    );
    expect(notificationSequence('bell', n)).toBe('\u0007');
  });

  it('a control character in the text cannot end the sequence early', () => {
    const hostile = { ...n, text: 'a\u0007\u001b]52;c;QQ==\u0007b' };
    const seq = notificationSequence('osc9', hostile);
    expect(seq.slice(0, -1)).not.toMatch(/[\u0007\u001b](?!\]9;)/);
  });
});
