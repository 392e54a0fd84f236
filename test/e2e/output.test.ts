import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FakeStep } from '../helpers/fake-openai';
import { ptyLaunches } from '../helpers/pty-launch';

const { launch: start } = ptyLaunches();

/** warden in auto mode (commands run without a card) on a temp project, against the fake model. */
async function launch(script: FakeStep[]) {
  return start(script, { prompt: 'run it', flags: ['--mode', 'auto'] });
}

const command = (cmd: string): FakeStep => ({
  toolCalls: [{ name: 'execute_command', args: { command: cmd } }],
});
const CTRL_O = '\u000f';

describe('tool output in the real binary', () => {
  it("a failing 26-line run shows its last lines and '+N lines'; Ctrl+O shows every line, and again hides them", async () => {
    const { app } = await launch([
      command('for i in $(seq 1 25); do echo "progress $i/25"; done; echo "FAILED: 1 test"; exit 1'),
      { text: 'The run failed.' },
    ]);
    await app.waitFor('The run failed.', 20_000);
    await app.waitFor('FAILED: 1 test');
    const screen = app.screen();
    expect(screen).toMatch(/\+\d+ lines/);
    expect(screen).toContain('progress 25/25');
    expect(screen).not.toContain('progress 12/25');
    app.press(CTRL_O);
    await app.waitFor('progress 12/25');
    expect(app.screen()).toContain('FAILED: 1 test');
    app.press(CTRL_O);
    await app.waitUntil(
      (s) => !s.includes('progress 12/25') && /\+\d+ lines/.test(s),
      10_000,
      'the card to fold',
    );
  });

  it('a slow command shows a live tail and its elapsed time while it runs', async () => {
    // The printed words are built at run time, so the command's own text (the card's summary) never holds them.
    const { app, root } = await launch([
      command('w=tail; echo "live-$w-1"; while [ ! -e go ]; do sleep 0.05; done; echo "live-$w-2"'),
      { text: 'Finished.' },
    ]);
    await app.waitFor('│ live-tail-1', 20_000);
    await app.waitFor(/running \d+s/);
    expect(app.screen()).not.toContain('live-tail-2');
    writeFileSync(join(root, 'go'), '');
    await app.waitFor('Finished.', 20_000);
    const done = app.screen();
    expect(done).toContain('live-tail-2');
    expect(done).not.toContain('│ live-tail-1');
    expect(done).not.toMatch(/running \d+s/);
  });
});
