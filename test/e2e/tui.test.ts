import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type FakeOpenAI,
  type FakeStep,
  lastToolMessage,
  type RecordedRequest,
  startFakeOpenAI,
} from '../helpers/fake-openai';
import { projectCheckpointDir } from '../../src/agent/checkpoints';
import { type PtyApp, startWarden } from '../helpers/pty';
import { auditDayFiles } from '../helpers/audit-lines';

let app: PtyApp | undefined;
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  app?.kill();
  await app?.exited;
  await fake?.close();
  app = undefined;
  fake = undefined;
});

type Started = { app: PtyApp; fake: FakeOpenAI; root: string; home: string };

async function launch(script: FakeStep[], extraEnv: Record<string, string> = {}): Promise<Started> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-tui-proj-')));
  const home = mkdtempSync(join(tmpdir(), 'warden-tui-home-'));
  fake = await startFakeOpenAI(script, { whenExhausted: { text: 'All done.' } });
  app = startWarden(['--root', root, 'do the task'], {
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'test',
    WARDEN_HOME: home,
    ...extraEnv,
  });
  return { app, fake, root, home };
}

/** The drawer pauses keys for 400 ms whenever the card under the cursor changes by itself; wait it out. */
async function cardReady(app: PtyApp): Promise<void> {
  await app.waitFor('Approval needed');
  await app.waitFor('keys paused');
  await app.waitUntil((s) => !s.includes('keys paused'), 10_000, 'the grace window to end');
}

const write = (path: string, content: string) => ({
  text: `Writing ${path}.`,
  toolCalls: [{ name: 'write_file', args: { path, content } }],
});
const envelope = (req: RecordedRequest | undefined) =>
  JSON.parse(lastToolMessage(req as RecordedRequest)?.content ?? '{}');
const fileSoon = (path: string) =>
  vi.waitFor(() => expect(existsSync(path)).toBe(true), { timeout: 10_000, interval: 20 });
const audit = (home: string) =>
  auditDayFiles(join(home, 'audit')).flatMap((f) =>
    readFileSync(join(home, 'audit', f), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)),
  );

describe('warden in a pseudo-terminal against the fake model', () => {
  it('approve: the card shows the side-by-side diff, y writes the file', async () => {
    const { app, root } = await launch([write('hello.txt', 'hello from the model\n'), { text: 'Wrote it.' }]);
    await cardReady(app);
    await app.waitFor('hello from the model');
    expect(app.screen()).toContain('write_file');
    app.press('y');
    await fileSoon(join(root, 'hello.txt'));
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toBe('hello from the model\n');
    await app.waitFor('Wrote it.');
  });

  it('reject with a reason: nothing is written and the model receives the reason', async () => {
    const { app, root, fake } = await launch([write('x.txt', 'x'), { text: 'Understood.' }]);
    await cardReady(app);
    await app.pressOnCard('n', 'reason ›');
    app.press('use docs/ instead');
    // Enter must arrive as its own key press, as it does when a person types.
    await app.waitFor('reason › use docs/ instead');
    app.press('\r');
    await app.waitFor('Understood.');
    expect(existsSync(join(root, 'x.txt'))).toBe(false);
    expect(envelope(fake.requests[1])).toMatchObject({
      status: 'rejected',
      by: 'user',
      reason: 'use docs/ instead',
    });
  });

  it('skip: the call is skipped and the model is told so', async () => {
    const { app, root, fake } = await launch([write('s.txt', 's'), { text: 'Moving on.' }]);
    await cardReady(app);
    app.press('s');
    await app.waitFor('Moving on.');
    expect(existsSync(join(root, 's.txt'))).toBe(false);
    expect(envelope(fake.requests[1])).toMatchObject({ status: 'skipped' });
  });

  it('edit through $EDITOR: the card shows the edit, and after y the edited content is what lands on disk', async () => {
    const editor = join(mkdtempSync(join(tmpdir(), 'warden-editor-')), 'edit.sh');
    writeFileSync(editor, '#!/bin/sh\nprintf "edited by a person\\n" > "$1"\n');
    chmodSync(editor, 0o755);
    const { app, root, home } = await launch([write('e.txt', 'model text\n'), { text: 'Edited.' }], {
      EDITOR: editor,
    });
    await cardReady(app);
    app.press('E');
    // The card shows the person's version first; one more y runs it.
    await app.waitFor('edited by you');
    expect(existsSync(join(root, 'e.txt'))).toBe(false);
    app.press('y');
    await fileSoon(join(root, 'e.txt'));
    expect(readFileSync(join(root, 'e.txt'), 'utf8')).toBe('edited by a person\n');
    await vi.waitFor(() =>
      expect(
        audit(home).some((r) => r.phase === 'outcome' && r.editedArgs?.content === 'edited by a person\n'),
      ).toBe(true),
    );
  });

  it('two sub-agents queue; approve-all for src/** drains the other queued request as a grant', async () => {
    const task = (req: RecordedRequest) => String(req.body.messages.find((m) => m.role === 'user')?.content);
    const sub = (req: RecordedRequest) => {
      const file = task(req) === 'TASK-A' ? 'src/a.txt' : 'src/b.txt';
      return req.body.messages.some((m) => m.role === 'tool')
        ? { text: `done ${file}` }
        : write(file, task(req));
    };
    const { app, root, home } = await launch([
      {
        toolCalls: [
          {
            name: 'spawn_agents',
            args: {
              agents: [
                { name: 'alpha', task: 'TASK-A' },
                { name: 'beta', task: 'TASK-B' },
              ],
            },
          },
        ],
      },
      sub,
      sub,
      sub,
      sub,
      { text: 'Both finished.' },
    ]);
    await app.waitFor('1 of 2');
    await cardReady(app);
    expect(app.screen()).toMatch(/alpha/);
    expect(app.screen()).toMatch(/beta/);
    await app.pressOnCard('a', 'pick a scope');
    // The scopes list this agent first, then all agents; pick the second one (src/**, all agents).
    app.press('\u001B[B');
    await app.waitFor(/› write_file under src\/\*\*, all agents/);
    app.press('\r');
    await fileSoon(join(root, 'src', 'a.txt'));
    await fileSoon(join(root, 'src', 'b.txt'));
    await app.waitFor('Both finished.');
    await vi.waitFor(() => {
      const outcomes = audit(home).filter((r) => r.phase === 'outcome' && r.tool === 'write_file');
      expect(outcomes.map((r) => r.approver).sort()).toEqual(['grant', 'human']);
    });
  });

  it('cancel the task: the pending request ends as cancelled and nothing is written', async () => {
    const { app, root, home } = await launch([write('c.txt', 'c')]);
    await cardReady(app);
    app.press('c');
    await vi.waitFor(() => expect(audit(home).some((r) => r.outcome === 'cancelled')).toBe(true));
    expect(existsSync(join(root, 'c.txt'))).toBe(false);
    await app.waitUntil((s) => !s.includes('Approval needed'), 10_000, 'the drawer to close');
  });

  it('the prompt keeps up with keys sent back to back; Enter right after typing sends', async () => {
    const lastUser = (req: RecordedRequest) =>
      String(req.body.messages.filter((m) => m.role === 'user').at(-1)?.content);
    const { app } = await launch([
      { text: 'Ready for more.' },
      (req) => ({ text: `You said: ${lastUser(req)}` }),
    ]);
    await app.waitFor('Ready for more.');
    app.press('ab');
    await app.waitFor('› ab');
    // No wait between them. "ab", Backspace, "x" is "ax" (the cursor cell follows it); with
    // ink-text-input the "x" was applied to a stale value and the line read "› x ".
    app.press('\u007f');
    app.press('x');
    await app.waitFor('› ax ');
    app.press('y');
    app.press('\r');
    await app.waitFor('You said: axy');
  });

  it('/audit shows the records of the day', async () => {
    const { app, root } = await launch([write('log.txt', 'l'), { text: 'Logged.' }]);
    await cardReady(app);
    app.press('y');
    await fileSoon(join(root, 'log.txt'));
    await app.waitFor('Logged.');
    // The turn changed only what the person approved on its card: a summary, no review card (issue 27 §3).
    await app.waitFor('exactly as you approved it');
    app.press('/audit');
    await app.waitFor('› /audit');
    app.press('\r');
    await app.waitFor(/approve|approval/i);
    await app.waitUntil((s) => s.includes('write_file') && /human/.test(s), 10_000, 'audit records');
  });
});

describe('when the shadow repository opens (issue 16: nothing between a model answer and its card)', () => {
  const shadowRepo = (home: string, root: string) => join(projectCheckpointDir(home, root), 'git', 'HEAD');

  it('while the app waits for the first prompt', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-tui-proj-')));
    const home = mkdtempSync(join(tmpdir(), 'warden-tui-home-'));
    fake = await startFakeOpenAI([]);
    app = startWarden(['--root', root], {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'test',
      WARDEN_HOME: home,
    });
    await app.waitFor('mode manual');
    await fileSoon(shadowRepo(home, root));
  });

  it('with a prompt on the command line: not before the first card, by its checkpoint once the card is drawn', async () => {
    let openedAtRequest: boolean | undefined;
    const started = await launch([]);
    started.fake.push(() => {
      openedAtRequest = existsSync(shadowRepo(started.home, started.root));
      return write('a.txt', 'one\n');
    });
    await started.app.waitFor('Approval needed');
    expect(openedAtRequest).toBe(false);
    await fileSoon(shadowRepo(started.home, started.root));
  });
});
