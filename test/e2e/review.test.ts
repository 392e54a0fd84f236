/**
 * The turn review end to end: the real binary in a pty against the fake model. A turn whose command
 * changes a file and creates another, and whose write_file changes a third, ends with the review card
 * listing all of them; reverting one file (r, then the revert_turn card's y) restores exactly it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { PtyApp } from '../helpers/pty';
import { ptyLaunches } from '../helpers/pty-launch';

const pty = ptyLaunches();

/** The drawer pauses keys for 400 ms whenever the card under the cursor changes by itself; wait it out. */
async function cardReady(a: PtyApp, text: string): Promise<void> {
  await a.waitFor('Approval needed');
  await a.waitFor(text);
  await a.waitUntil((s) => !s.includes('keys paused'), 10_000, 'the grace window to end');
}

describe('turn review in a pseudo-terminal', () => {
  it('lists what a command and a write changed; reverting one file restores only it', async () => {
    const { app, root } = await pty.launch(
      [
        {
          toolCalls: [
            { name: 'execute_command', args: { command: 'echo new > mod.txt && echo made > made.txt' } },
          ],
        },
        { toolCalls: [{ name: 'write_file', args: { path: 'w.txt', content: 'written\n' } }] },
        { text: 'Changed three files.' },
      ],
      { prompt: 'change things', files: { 'mod.txt': 'old\n', 'w.txt': 'before\n', 'src/.keep': '' } },
    );
    await cardReady(app, 'execute_command');
    // It overwrites a file the checkpoint holds: medium, undo restores it (issue 27 §1), one y.
    expect(app.screen()).toContain('undo restores it');
    app.press('y');
    await vi.waitFor(() => expect(existsSync(join(root, 'made.txt')), app.screen()).toBe(true), {
      timeout: 15_000,
    });
    await app.waitFor('write_file w.txt');
    await app.pressOnCard('y', 'Review the turn');
    await app.waitFor('Review the turn: 3 file(s) changed', 20_000);
    const screen = app.screen();
    expect(screen).toContain('made.txt');
    expect(screen).toContain('mod.txt');
    expect(screen).toContain('w.txt');
    expect(readFileSync(join(root, 'mod.txt'), 'utf8')).toBe('new\n');
    // made.txt, mod.txt, w.txt: the cursor goes to the command's modified file.
    app.press('\x1b[B');
    await app.waitFor(/› \[ \] \S+ modified\s+mod\.txt/);
    app.press('r');
    await cardReady(app, 'revert_turn');
    await app.pressOnCard('y', /Reverted|restored/);
    await vi.waitFor(() => expect(readFileSync(join(root, 'mod.txt'), 'utf8')).toBe('old\n'), {
      timeout: 15_000,
    });
    await app.waitUntil((s) => !s.includes('Review the turn'), 10_000, 'the review to close');
    expect(readFileSync(join(root, 'made.txt'), 'utf8')).toBe('made\n');
    expect(readFileSync(join(root, 'w.txt'), 'utf8')).toBe('written\n');
  });
});
