import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FakeStep } from '../helpers/fake-openai';
import { ptyLaunches } from '../helpers/pty-launch';
import { auditLines, userTexts } from '../helpers/audit-lines';

const { launch: start } = ptyLaunches();

const CTRL_P = '\u0010';
const ENTER = '\r';

async function launch(script: FakeStep[]) {
  return start(script, { prompt: 'go', whenExhausted: { text: 'ASKED AGAIN' } });
}

describe('staying in control, in the real binary (issue 14 §1, §2)', () => {
  it('five queued writes: one c cancels the whole task; nothing is written and the model is not asked again', async () => {
    const writes = [1, 2, 3, 4, 5].map((i) => ({
      name: 'write_file',
      args: { path: `f${i}.txt`, content: `${i}\n` },
    }));
    const { app, fake, root, home } = await launch([{ text: 'Writing five files.', toolCalls: writes }]);
    await app.waitFor('Approval needed', 20_000);
    await app.pressOnCard('c', "Cancelled main's task");
    await app.waitUntil((s) => !s.includes('Approval needed'), 15_000, 'the drawer to close');
    expect(fake.requests).toHaveLength(1);
    expect(app.screen()).not.toContain('ASKED AGAIN');
    for (const i of [1, 2, 3, 4, 5]) expect(existsSync(join(root, `f${i}.txt`))).toBe(false);
    expect(auditLines(home).some((r) => r.tool === 'task' && r.outcome === 'cancelled')).toBe(true);
  });

  it('Ctrl+P pauses; !echo hi runs as the person; Ctrl+P resumes with what the person did', async () => {
    let release!: () => void;
    const paused = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { app, fake, home } = await launch([
      async () => {
        await paused;
        return { text: 'Listing.', toolCalls: [{ name: 'list_dir', args: { path: '.' } }] };
      },
      (req) => ({ text: userTexts(req).includes('hi-from-person') ? 'SAW THE PERSON' : 'SAW NOTHING' }),
    ]);
    await fake.waitForRequests(1);
    await app.waitFor('working');
    app.press(CTRL_P);
    await app.waitFor('paused: all agents');
    release();
    app.press(`!echo hi-from-person${ENTER}`);
    await app.waitFor(/hi-from-person\s*$/m);
    app.press(`carry on please${ENTER}`);
    await app.waitFor('Note kept');
    // Still paused: the model has not been asked again.
    expect(fake.requests).toHaveLength(1);
    app.press(CTRL_P);
    await app.waitFor('SAW THE PERSON', 20_000);
    expect(app.screen()).not.toContain('paused: all agents');
    expect(userTexts(fake.requests[1])).toContain("The person's note: carry on please");
    const person = auditLines(home).filter((r) => r.origin === 'person');
    expect(person.at(-1)).toMatchObject({ approver: 'human', origin: 'person', outcome: 'executed' });
  });
});
