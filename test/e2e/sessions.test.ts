/**
 * Sessions survive warden (issue 15 §1, §2), end to end with the real binary: a kill -9 while a card
 * waits, then `--continue` offers the card again marked "from before the restart" and the model goes
 * on with its result; `--resume` without sessions says so; headless `--continue` carries the
 * conversation; `/resume` in the app switches to a saved session.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAI, type FakeStep, startFakeOpenAI } from '../helpers/fake-openai';
import { type PtyApp, WARDEN_BIN, startWarden } from '../helpers/pty';

const run = promisify(execFile);
let fake: FakeOpenAI | undefined;
const apps: PtyApp[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) {
    app.kill();
    await app.exited;
  }
  await fake?.close();
  fake = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function setup(script: FakeStep[]) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-sess-proj-')));
  const home = mkdtempSync(join(tmpdir(), 'warden-sess-home-'));
  dirs.push(root, home);
  fake = await startFakeOpenAI(script, { whenExhausted: { text: 'Nothing more.' } });
  const env = {
    WARDEN_HOME: home,
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'k',
    WARDEN_MODEL: 'fake-model',
  };
  return { root, home, env };
}

function app(args: string[], env: Record<string, string>): PtyApp {
  const started = startWarden(args, env);
  apps.push(started);
  return started;
}

describe('sessions end to end', () => {
  it('kill -9 while a card waits; --continue offers it again, from before the restart, and the model goes on', async () => {
    const { root, env } = await setup([
      {
        text: 'Changing it.',
        toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'new\n' } }],
      },
      (req) => ({ text: `After the restart I got: ${req.body.messages.at(-1)?.content?.slice(0, 22)}` }),
    ]);
    writeFileSync(join(root, 'a.txt'), 'old\n');
    const first = app(['--root', root, 'change a.txt'], env);
    await first.waitFor('a.txt');
    await first.waitFor(/approve/i);
    first.pty.kill('SIGKILL');
    await first.exited;
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('old\n');

    const second = app(['--root', root, '--continue'], env);
    await second.waitFor('from before the restart');
    expect(second.screen()).toContain('change a.txt');
    await second.pressOnCard('y', 'After the restart I got: {"status":"executed"');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('new\n');
    expect(second.screen()).toMatch(/Grants\s+\(approve-all\)\s+are\s+not\s+restored/);
  });

  it('--resume and --continue with no saved session say so and start nothing', async () => {
    const { root, env } = await setup([]);
    for (const flag of ['--resume', '--continue']) {
      const started = app(['--root', root, flag], env);
      expect(await started.exited).toBe(1);
      // The headless terminal may still be drawing the last output when the exit is heard.
      await started.waitFor(/there is no saved session for .* to (resume|continue)/);
    }
    expect(fake?.requests).toEqual([]);
  });

  it('headless --continue carries the conversation to the next request', async () => {
    const { root, env } = await setup([{ text: 'Noted: kiwi.' }, { text: 'It was kiwi.' }]);
    const opts = { env: { ...process.env, ...env }, cwd: root };
    await run(process.execPath, [WARDEN_BIN, '--headless', '-p', 'remember the word kiwi'], opts);
    const { stdout } = await run(
      process.execPath,
      [WARDEN_BIN, '--headless', '--continue', '-p', 'which word?'],
      opts,
    );
    expect(stdout.trim()).toBe('It was kiwi.');
    const roles = fake?.requests[1]?.body.messages.map((m) => `${m.role}:${m.content ?? ''}`);
    expect(roles?.slice(1)).toEqual([
      'user:remember the word kiwi',
      'assistant:Noted: kiwi.',
      'user:which word?',
    ]);
  });

  it('/resume in the app lists the saved session and Enter switches to it', async () => {
    const { root, env } = await setup([{ text: 'Noted: kiwi.' }]);
    const opts = { env: { ...process.env, ...env }, cwd: root };
    await run(process.execPath, [WARDEN_BIN, '--headless', '-p', 'remember the word kiwi'], opts);
    const started = app(['--root', root], env);
    await started.waitFor(/mode /);
    started.press('/resume\r');
    await started.waitFor(/remember the word kiwi · .* ago · 1 turn/);
    started.press('\r');
    await started.waitFor('Noted: kiwi.');
    await started.waitFor('Resumed "remember the word kiwi"');
  });
});
