/**
 * A session two processes touch (issue 29 §3), through the real binary: while one warden holds a
 * session, a second `--continue` is refused and told who holds it, and `--continue --fork` goes on
 * from a copy; a lock whose process is gone is taken over; a session file of a newer format is
 * refused with a clear message.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeOpenAI, FakeStep } from '../helpers/fake-openai';
import {
  fakeModel,
  type HeadlessRun,
  headlessWarden,
  type Places,
  tempPlaces,
  useCleanup,
} from '../helpers/headless-run';

const later = useCleanup();
type Run = HeadlessRun;
const places = () => tempPlaces(later, 'holder');
const fake = (script: FakeStep[]) => fakeModel(later, script);
const warden = (at: Places, server: FakeOpenAI, args: string[]) => headlessWarden(at, server, args);

const sessionFiles = (home: string) =>
  readdirSync(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'));

describe('a session held by one warden', () => {
  it('a second --continue while the first runs is told who holds it; --fork continues a copy', async () => {
    const at = places();
    const other = await fake([{ text: 'B answered.' }]);
    let second: Run | undefined;
    let forked: Run | undefined;
    const server = await fake([
      { text: 'Noted: kiwi.' },
      // While warden A (continuing the session) waits for this reply, warden B tries the same session.
      async () => {
        second = await warden(at, other, ['--continue', '-p', 'me too']);
        forked = await warden(at, other, ['--continue', '--fork', '-p', 'which word?']);
        return { text: 'A answered.' };
      },
    ]);
    expect((await warden(at, server, ['-p', 'remember the word kiwi'])).code).toBe(0);
    const a = await warden(at, server, ['--continue', '-p', 'go on']);
    expect(a.code).toBe(0);
    expect(second?.code).toBe(1);
    expect(second?.stderr).toMatch(/is open in another warden \(pid \d+ on .*\).*--fork/);
    expect(forked?.code).toBe(0);
    // The fork saw the conversation as it was, and became a session of its own.
    const seen = other.requests.at(-1)?.body.messages.map((m) => m.content);
    expect(seen).toContain('remember the word kiwi');
    expect(seen).not.toContain('me too');
    expect(sessionFiles(at.home)).toHaveLength(2);
    // Once A is done, the session is free again.
    expect((await warden(at, server, ['--continue', '-p', 'later'])).code).toBe(0);
  });

  it('a lock left by a process that is gone is taken over', async () => {
    const at = places();
    const server = await fake([{ text: 'first' }, { text: 'second' }]);
    expect((await warden(at, server, ['-p', 'hello'])).code).toBe(0);
    const id = (sessionFiles(at.home)[0] ?? '').replace(/\.jsonl$/, '');
    const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));
    writeFileSync(
      join(at.home, 'sessions', `${id}.lock`),
      JSON.stringify({ pid: dead, host: hostname(), since: '2026-01-01T00:00:00Z' }),
    );
    const run = await warden(at, server, ['--continue', '-p', 'again']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('a session file written by a newer warden is refused, and left as it is', async () => {
    const at = places();
    const server = await fake([{ text: 'first' }]);
    expect((await warden(at, server, ['-p', 'hello'])).code).toBe(0);
    const path = join(at.home, 'sessions', sessionFiles(at.home)[0] ?? '');
    const text = readFileSync(path, 'utf8').replace('"v":1', '"v":2');
    writeFileSync(path, text);
    const run = await warden(at, server, ['--continue', '-p', 'again']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/written by a newer warden \(session format 2; this one reads format 1\)/);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(server.requests).toHaveLength(1);
  });
});
