/**
 * Custom commands in a real session: `run_command` sends the file's prompt with its arguments as the
 * next turn (the transcript shows `/name args`); the project's run only once its files are trusted.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SessionHarness, startSession } from '../helpers/session-harness';

let h: SessionHarness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const lastUser = (s: SessionHarness, i: number) =>
  String(s.fake.requests[i]?.body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
const notices = (s: SessionHarness) =>
  s.events.flatMap((e) => (e.type === 'notice' ? [e.text] : [])).join('\n');
const turns = (s: SessionHarness) => s.events.filter((e) => e.type === 'turn_done').length;

describe('custom commands in a session', () => {
  it('yours: the model gets the prompt with $ARGUMENTS filled in; the transcript shows the command', async () => {
    h = await startSession([{ text: 'reviewed' }], {
      homeFiles: {
        'commands/review.md': '---\ndescription: Review a file\n---\nReview $ARGUMENTS for bugs.',
      },
    });
    expect(h.session.client.snapshot().customCommands).toEqual([
      {
        name: 'review',
        source: 'user',
        file: join(h.home, 'commands', 'review.md'),
        description: 'Review a file',
      },
    ]);
    h.session.client.send({ type: 'run_command', name: 'review', args: 'src/a.ts' });
    await expect.poll(() => turns(h as SessionHarness), { timeout: 10_000 }).toBe(1);
    expect(lastUser(h, 0)).toBe('Review src/a.ts for bugs.');
    const users = h.session.client.snapshot().transcript.filter((e) => e.kind === 'user');
    expect(users.map((u) => (u.kind === 'user' ? u.text : ''))).toEqual(['/review src/a.ts']);
  });

  it("the project's: refused while untrusted (nothing sent), run once the person trusts the files", async () => {
    h = await startSession([{ text: 'shipped' }], {
      files: { '.warden/commands/ship.md': 'Ship version $1.' },
    });
    const trust = h.session.client.snapshot().trust;
    expect(trust?.status).toBe('untrusted');
    expect(trust?.items.map((i) => i.kind)).toEqual(['command']);
    h.session.client.send({ type: 'run_command', name: 'ship', args: '2.0' });
    await expect.poll(() => notices(h as SessionHarness)).toContain('not trusted yet');
    expect(h.fake.requests).toHaveLength(0);
    h.session.client.send({ type: 'trust_project', trust: true, hash: trust?.hash ?? '' });
    await expect
      .poll(
        () =>
          h?.session.client.snapshot().customCommands?.find((c) => c.name === 'ship')?.hidden ?? 'offered',
      )
      .toBe('offered');
    h.session.client.send({ type: 'run_command', name: 'ship', args: '2.0' });
    await expect.poll(() => turns(h as SessionHarness), { timeout: 10_000 }).toBe(1);
    expect(lastUser(h, 0)).toBe('Ship version 2.0.');
  });

  it('an unknown command is said, nothing is sent', async () => {
    h = await startSession([]);
    h.session.client.send({ type: 'run_command', name: 'nope', args: '' });
    await expect.poll(() => notices(h as SessionHarness)).toContain('There is no custom command /nope.');
    expect(h.fake.requests).toHaveLength(0);
  });
});
