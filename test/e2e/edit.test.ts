// Issue 13 §1 and §3 end to end: the real binary in a pty against the fake model. An edit_file call's
// card shows its diff and `y` edits the file; a person's edit of the JSON (several Backspaces in one
// read included) shows its diff, waits for one more `y`, and reaches the model as "edited by the person".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FakeStep, lastToolMessage, type RecordedRequest } from '../helpers/fake-openai';
import type { PtyApp } from '../helpers/pty';
import { ptyLaunches } from '../helpers/pty-launch';

const { launch: start } = ptyLaunches();

async function launch(script: FakeStep[], files: Record<string, string>) {
  return start(script, { prompt: 'do the task', files });
}

/** The drawer pauses keys for 400 ms whenever the card under the cursor changes by itself; wait it out. */
async function cardReady(app: PtyApp): Promise<void> {
  await app.waitFor('Approval needed');
  await app.waitUntil((s) => !s.includes('keys paused'), 10_000, 'the grace window to end');
}

const toolResult = (req: RecordedRequest | undefined) =>
  JSON.parse(lastToolMessage(req as RecordedRequest)?.content ?? '{}');
const CTRL_E = '\u0005';
const CTRL_S = '\u0013';
const DOWN = '\u001b[B';
const LEFT = '\u001b[D';

describe("edit_file and the person's edit in the real binary", () => {
  it('edit_file: the card shows the change in a 40-line file, y edits it on disk', async () => {
    const source = Array.from({ length: 40 }, (_, i) => `export const step${i} = ${i};`).join('\n');
    const { app, fake, root } = await launch(
      [
        {
          text: 'Fixing step 20.',
          toolCalls: [
            {
              name: 'edit_file',
              args: {
                path: 'src/steps.ts',
                edits: [{ old_string: 'step20 = 20;', new_string: 'step20 = 20 * 2; // fixed' }],
              },
            },
          ],
        },
        { text: 'Fixed.' },
      ],
      { 'src/steps.ts': `${source}\n` },
    );
    await cardReady(app);
    await app.waitFor('// fixed');
    expect(app.screen()).toContain('edit_file src/steps.ts');
    expect(readFileSync(join(root, 'src/steps.ts'), 'utf8')).toBe(`${source}\n`);
    await app.pressOnCard('y', 'Fixed.');
    expect(readFileSync(join(root, 'src/steps.ts'), 'utf8')).toContain('step20 = 20 * 2; // fixed');
    expect(toolResult(fake.requests[1])).toMatchObject({ status: 'executed' });
    expect(readFileSync(join(root, 'src/steps.ts'), 'utf8').split('\n')).toHaveLength(41);
  });

  it('the person edits the JSON: Backspaces in one read erase, the diff shows, y runs it, the model is told', async () => {
    const { app, fake, root } = await launch(
      [
        {
          text: 'Writing a note.',
          toolCalls: [{ name: 'write_file', args: { path: 'note.txt', content: 'model text\n' } }],
        },
        { text: 'Noted.' },
      ],
      {},
    );
    await cardReady(app);
    await app.pressOnCard('e', 'Edit arguments (JSON)');
    // Row 3 is `  "content": "model text\n"`: to its end, before the closing quote.
    app.press(DOWN + DOWN + CTRL_E + LEFT);
    // Seven Backspaces in one write: " text\n" and nothing inserted.
    app.press('\x7f\x7f\x7f\x7f\x7f\x7f\x7f');
    await app.waitFor('"content": "model"');
    expect(app.screen()).not.toContain('␡');
    app.press(' by hand\\n');
    await app.waitFor('"content": "model by hand\\n"');
    app.press(CTRL_S);
    await app.waitFor('edited by you');
    await app.waitFor('model by hand');
    // The edit waits for one more y: nothing written yet.
    expect(() => readFileSync(join(root, 'note.txt'))).toThrow();
    expect(fake.requests).toHaveLength(1);
    await app.pressOnCard('y', 'Noted.');
    expect(readFileSync(join(root, 'note.txt'), 'utf8')).toBe('model by hand\n');
    const result = toolResult(fake.requests[1]);
    expect(result).toMatchObject({
      status: 'executed',
      edited: { by: 'user', args: { path: 'note.txt', content: 'model by hand\n' } },
    });
    expect(result.edited.changes[0]).toMatch(/^content: the person's version differs at line 1 \(\+1 −1\)/);
    await app.waitFor('edited by you');
  });
});
