import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ptyLaunches } from '../helpers/pty-launch';

const pty = ptyLaunches();

const BIG = `${Array.from({ length: 2000 }, (_, i) => `const value${i + 1} = ${i + 1};`).join('\n')}\n`;
const BIG_AFTER = BIG.replace('const value100 = 100;', 'const value100 = 100 * 2;')
  .replace('const value1000 = 1000;', 'const value1000 = 1000; // fixed')
  .replace('const value1900 = 1900;', 'const renamed1900 = 1900;');
const head = 'a.b=1;'.repeat(183);
const MINIFIED = `${head}function oldName(){return 1};${'c.d=2;'.repeat(300)}\n`;
const MINIFIED_AFTER = MINIFIED.replace('oldName', 'newName');

describe('the diff card on real-sized files (pty)', () => {
  it('folds a 2,000-line file to 3 hunks, ] jumps to each change, a minified line shows its change; approved writes keep their diff', async () => {
    const { app, root } = await pty.launch(
      [
        { toolCalls: [{ name: 'write_file', args: { path: 'big.ts', content: BIG_AFTER } }] },
        { toolCalls: [{ name: 'write_file', args: { path: 'app.min.js', content: MINIFIED_AFTER } }] },
        { text: 'Both files are written.' },
      ],
      { prompt: 'fix the files', files: { 'big.ts': BIG, 'app.min.js': MINIFIED } },
    );
    expect(MINIFIED.indexOf('oldName')).toBeGreaterThan(1090);
    await app.waitFor('change 1 of 3 · line 100', 20_000);
    // The drawer pauses keys for 400 ms when a card appears by itself; wait it out.
    await app.waitUntil((x) => !x.includes('keys paused'), 10_000, 'the grace window to end');
    let s = app.screen();
    expect(s).toContain('⋯ 96 unchanged lines');
    expect(s).toMatch(/100 - const value100 = 100;\s+│\s+100 \+ const value100 = 100 \* 2;/);
    // The next hunk follows its fold row, not 900 lines of paging.
    expect(s).toContain('⋯ 893 unchanged lines');
    await app.pressOnCard(']', 'change 2 of 3 · line 1000');
    await app.pressOnCard(']', 'change 3 of 3 · line 1900');
    s = app.screen();
    expect(s).toMatch(/1900 - const value1900 = 1900;\s+│\s+1900 \+ const renamed1900 = 1900;/);
    await app.pressOnCard('[', 'change 2 of 3 · line 1000');
    app.press('y');
    await vi.waitFor(() => expect(readFileSync(join(root, 'big.ts'), 'utf8')).toBe(BIG_AFTER), {
      timeout: 10_000,
      interval: 20,
    });

    // The minified line: cut around its change on both sides, both cut ends marked.
    await app.waitFor('app.min.js', 20_000);
    await app.waitFor(/- …[^\n]*oldName[^\n]*…\s+│\s+1 \+ …[^\n]*newName[^\n]*…/, 20_000);
    // This card came by itself: keys wait out its grace window (pressOnCard retries).
    await app.pressOnCard('y', 'Both files are written.');
    await vi.waitFor(() => expect(readFileSync(join(root, 'app.min.js'), 'utf8')).toBe(MINIFIED_AFTER), {
      timeout: 10_000,
      interval: 20,
    });
    // The approved writes keep their folded diff in the transcript, under their cards.
    await app.waitFor(/1900 \+ const renamed1900 = 1900;/, 20_000);
    s = app.screen();
    expect(s).toContain('⋯ 897 unchanged lines');
    expect(s).toMatch(/1 - …[^\n]*oldName/);
    expect(s).toMatch(/1 \+ …[^\n]*newName/);
  }, 90_000);
});
