/**
 * The real binary in a pty (issue 13 §5): the start banner says model, endpoint host (never the
 * key), project and mode; Ctrl+C first interrupts a running turn — its pending request fails
 * closed on the record, nothing is written — and only a second press when idle quits, exit 0.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { type FakeStep } from '../helpers/fake-openai';
import type { PtyApp } from '../helpers/pty';
import { ptyLaunches } from '../helpers/pty-launch';
import { auditDayFiles } from '../helpers/audit-lines';

const { launch: start } = ptyLaunches();

const KEY = 'sk-test-DO-NOT-SHOW-4242';

async function launch(script: FakeStep[], prompt?: string, files: Record<string, string> = {}) {
  return start(script, {
    ...(prompt ? { prompt } : {}),
    files,
    env: { OPENAI_API_KEY: KEY, WARDEN_MODEL: 'fake-model-x' },
  });
}

/** Types a probe key until the prompt shows it: from then on keys reach the app, not the tty's line discipline. */
async function inputReady(app: PtyApp): Promise<void> {
  await app.waitFor('mode manual');
  app.press('x');
  await app.waitFor('› x');
  app.press('\u007f');
  await app.waitUntil((s) => !s.includes('› x'), 15_000, 'the probe key to be erased');
}

const auditLines = (home: string): { tool: string; outcome: string; reason?: string }[] =>
  existsSync(join(home, 'audit'))
    ? auditDayFiles(join(home, 'audit')).flatMap((f) =>
        readFileSync(join(home, 'audit', f), 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      )
    : [];

describe('polish in the real binary', () => {
  it('the start banner shows model, endpoint host, project, mode and sandbox — never the key', async () => {
    const { app, fake, root } = await launch([]);
    const host = new URL(fake.url).host;
    await app.waitFor(`warden · model fake-model-x at ${host}`);
    // The banner may reach the terminal in more than one read: wait for its last line, not its first.
    await app.waitFor(/mode manual · (sandbox on \(bubblewrap\)|⚠ sandbox off)/);
    const screen = app.screen();
    expect(screen).toContain(`project ${root}`);
    expect(screen).not.toContain('DO-NOT-SHOW');
    await inputReady(app);
    app.press('\u0003');
    await app.waitFor('press Ctrl+C again to quit');
    app.press('\u0003');
    expect(await app.exited).toBe(0);
  });

  it('Ctrl+C interrupts the running turn (its pending write fails closed), then twice when idle quits with 0', async () => {
    const { app, root, home } = await launch(
      [{ text: 'Writing.', toolCalls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x\n' } }] }],
      'write x',
    );
    await app.waitFor('Approval needed');
    app.press('\u0003');
    // The turn ends: the card goes, nothing asks to quit yet, the process lives on.
    await app.waitUntil(
      (s) => !s.includes('Approval needed') && !s.includes('working'),
      15_000,
      'the turn to end',
    );
    expect(app.screen()).not.toContain('press Ctrl+C again to quit');
    // Fail closed on the record: the write's decision line says cancelled, with its reason code.
    await vi.waitFor(
      () =>
        expect(auditLines(home).filter((l) => l.tool === 'write_file')).toContainEqual(
          expect.objectContaining({
            outcome: 'cancelled',
            reason: expect.stringMatching(/^task_cancelled: /),
          }),
        ),
      { timeout: 10_000, interval: 20 },
    );
    expect(existsSync(join(root, 'x.txt'))).toBe(false);
    app.press('\u0003');
    await app.waitFor('press Ctrl+C again to quit');
    app.press('\u0003');
    expect(await app.exited).toBe(0);
  });

  it('@path: Tab completes a project file, and the sent prompt carries its content', async () => {
    const { app, fake } = await launch([{ text: 'Read it.' }], undefined, {
      'src/app.ts': 'export const marker = 4711;\n',
    });
    await inputReady(app);
    app.press('explain @sr');
    await app.waitFor('› explain @sr');
    app.press('\t');
    await app.waitFor('› explain @src/');
    app.press('\t');
    await app.waitFor('› explain @src/app.ts');
    app.press('\r');
    await app.waitFor('Attached @src/app.ts.');
    await app.waitFor('Read it.');
    const body = fake.requests[0]?.body as { messages: { role: string; content: string }[] };
    const user = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    expect(user).toMatch(
      /^explain @src\/app\.ts\n\n<attached-file path="src\/app\.ts">\n.*export const marker = 4711;/s,
    );
  });
});
