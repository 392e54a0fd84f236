/**
 * Screens a newcomer meets, in the real binary at the sizes most people have (issue 33 §2): each
 * check names content that must be visible as whole rows (rows drawn over each other break them).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type PtyApp, startWarden } from '../helpers/pty';
import { ptyLaunches } from '../helpers/pty-launch';

const pty = ptyLaunches();
const SIZES = [
  { cols: 80, rows: 24 },
  { cols: 120, rows: 40 },
] as const;

const dirs: string[] = [];
let demo: PtyApp | undefined;
afterEach(async () => {
  demo?.kill();
  await demo?.exited;
  demo = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The demo in a pty of `size`, on a temp home. */
function startDemo(size: { cols: number; rows: number }): PtyApp {
  const base = mkdtempSync(join(tmpdir(), 'warden-screens-'));
  dirs.push(base);
  const home = join(base, 'home');
  mkdirSync(home);
  demo = startWarden(
    ['--demo'],
    { HOME: home, WARDEN_HOME: join(home, '.warden'), WARDEN_TEST_CWD: home },
    size,
  );
  return demo;
}

/** Types the first prompt once keys reach the app, and approves the plan: the sub-agents' cards follow. */
async function toFirstWriteCard(app: PtyApp): Promise<void> {
  await app.waitFor('mode manual', 20_000);
  app.press('x');
  await app.waitFor('› x');
  app.press('\u007fgo\r');
  await app.waitFor('Approval needed', 20_000);
  await pressUntil(app, 'y', /what +write_file src\/farewell\.js/);
}

/**
 * Presses `key` until the screen shows `shows`. A card that came by itself drops keys while it
 * settles and pauses them for a moment after; a person presses again, and so does this.
 */
export async function pressUntil(app: PtyApp, key: string, shows: RegExp | string, tries = 8): Promise<void> {
  for (let i = 0; i < tries; i++) {
    app.press(key);
    try {
      await app.waitFor(shows, 2_000);
      return;
    } catch {
      // Not yet: the key fell in the card's settling or grace window.
    }
  }
  throw new Error(`${JSON.stringify(key)} never showed ${String(shows)}:\n${app.screen()}`);
}

/** The queue row of the card in view ("› writer write_file src/farewell.js"), spaces collapsed. */
const cardInView = (screen: string) =>
  /^› .*$/m
    .exec(screen)?.[0]
    ?.replace(/ +\S+ +\d+s$/, '')
    .replace(/ +/g, ' ')
    .trimEnd();

/**
 * Approves card after card until the card in view matches `target`: `y`, and on a HIGH card a
 * second `y` once "press y again" is on screen. Each key waits for the screen to answer the one
 * before: two keys in one read are a doubled key, which a HIGH card refuses by design.
 */
async function approveUntil(app: PtyApp, target: RegExp): Promise<void> {
  const changed = (current: string | undefined) => (s: string) => cardInView(s) !== current;
  for (let n = 0; n < 60; n++) {
    await app.waitFor('Approval needed', 30_000);
    const current = cardInView(app.screen());
    if (current && target.test(current)) return;
    app.press('y');
    await app
      .waitUntil((s) => changed(current)(s) || s.includes('press y again'), 2_000, 'the next card')
      .catch(() => undefined);
    if (!changed(current)(app.screen()) && app.screen().includes('press y again')) {
      app.press('y');
      await app.waitUntil(changed(current), 2_000, 'the next card').catch(() => undefined);
    }
  }
  throw new Error(`never reached ${String(target)}:\n${app.screen()}`);
}

const rowsOf = (screen: string) => screen.split('\n').map((l) => l.trimEnd());

describe.each(SIZES)('screens at $cols x $rows (pty)', (size) => {
  it('? on a diff card shows every key of the card, one whole row each (nothing drawn over)', async () => {
    const app = startDemo(size);
    await toFirstWriteCard(app);
    await pressUntil(app, '?', 'Keys · any key closes the help');
    // Every key the card takes is on screen, each starting its cell with its description.
    const cells = [
      ['y', 'approve this call once'],
      ['n', 'reject'],
      ['s', 'skip this call'],
      [']/[', 'next / previous change'],
      ['z', 'show every unchanged'],
      ['j/k', 'scroll a line'],
      ['↑/↓ Tab', 'pick another'],
    ].map(([keys, does]) => new RegExp(`(^|\\s)${keys?.replace(/[[\]/]/g, '\\$&')} +${does}`));
    const shown = (cell: RegExp) => (screen: string) => rowsOf(screen).some((r) => cell.test(r));
    // The help's title can be drawn a frame before its last rows are (a loaded machine): wait for the whole help.
    await app
      .waitUntil((s) => cells.every((cell) => shown(cell)(s)), 5_000, 'the whole help')
      .catch(() => undefined);
    const rows = rowsOf(app.screen());
    expect(rows.filter((r) => r.startsWith('Keys · any key closes the help'))).toHaveLength(1);
    for (const cell of cells) expect(shown(cell)(app.screen()), String(cell)).toBe(true);
    // Any key closes it and the card's details are back.
    app.press('x');
    await app.waitFor(/what +write_file src\/farewell\.js/);
  }, 60_000);

  it('the escalation card is its own kind (goal, each failed attempt, what it needs, the key line once), names the sub-agent’s own plan step; take over shows the agent paused', async () => {
    const app = startDemo(size);
    await toFirstWriteCard(app);
    await approveUntil(app, /escalate/);
    const keyLine = 'r retry with an instruction · t take over';
    await app.waitUntil((x) => /^Needs /m.test(x) && x.includes(keyLine), 15_000, 'the whole card');
    const s = app.screen();
    // The tester's own step (the plan step that names it), not the main agent's first open one.
    expect(s).toMatch(/⚑ tester failed the same step repeatedly and stopped · step 3\/4/);
    expect(s).toMatch(/^Goal +\[demo:tester\]/m);
    for (const path of ['test/config.json', 'config/test.json', '.node-test.json'])
      expect(s).toMatch(new RegExp(`\\d\\. read_file ${path.replace(/\./g, '\\.')}`));
    expect(s).not.toMatch(/^(why|rule|undo) /m);
    expect(s).not.toContain('NOT reversible');
    expect(s).not.toContain('{"goal"');
    expect(s.split(keyLine).length - 1).toBe(1);

    // Take over: the tester is paused, and reads so — not "◐ running", not "working".
    await pressUntil(app, 't', /⏸ tester paused/);
    const held = app.screen();
    expect(held).not.toMatch(/tester running/);
    expect(held).not.toContain('working (Esc cancels)');
    // The status bar says the pause (at 80 columns it is cut after the name).
    expect(held).toContain(
      size.cols >= 120 ? '⏸ paused: tester (Ctrl+P resumes · Esc cancels)' : '⏸ paused: tester',
    );
  }, 120_000);
});

describe.each(SIZES)('the audit trail at $cols x $rows (pty)', (size) => {
  it('Ctrl+T while a card is open: a live column beside it (when, who, outcome, approver, what), or one line saying it folded away', async () => {
    const app = startDemo(size);
    await app.waitFor('mode manual', 20_000);
    app.press('x');
    await app.waitFor('› x');
    app.press('\u007fgo\r');
    await app.waitFor('Approval needed', 20_000);
    await pressUntil(app, '\u0014', size.cols >= 100 ? 'Audit · latest first' : 'audit sidebar folded away');
    const wide = [
      // Beside the card: the card's queue row and the sidebar share screen rows.
      /› main +propose_plan.*│/,
      /\d\d:\d\d:\d\d main executed by policy/,
      /read_file src\/greet\.js/,
      // The card's own request is marked.
      /▶\d\d:\d\d:\d\d main requested/,
    ];
    const narrow = [/needs 100 columns, this terminal has 80/, /› main +propose_plan/];
    // The sidebar's title can be drawn a frame before its rows are (a loaded machine): wait for them all.
    const expected = size.cols >= 100 ? wide : narrow;
    await app
      .waitUntil((screen) => expected.every((p) => p.test(screen)), 5_000, 'the whole sidebar')
      .catch(() => undefined);
    const s = app.screen();
    for (const p of expected) expect(s).toMatch(p);
    if (size.cols >= 100) {
      // Live: approving the plan adds its decision at the top.
      await pressUntil(app, 'y', /▶?\d\d:\d\d:\d\d main executed by human/);
    }
  }, 60_000);
});

const LONG = `${Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const LONG_AFTER = LONG.replace('line 10\n', 'line ten\n').replace('line 50\n', 'line fifty\n');

describe('the diff card at 80x24 (pty)', () => {
  it('] lands on a change with both its − and its + line in view', async () => {
    const { app } = await pty.launch(
      [{ toolCalls: [{ name: 'write_file', args: { path: 'notes.txt', content: LONG_AFTER } }] }],
      { prompt: 'fix the notes', files: { 'notes.txt': LONG }, size: { cols: 80, rows: 24 } },
    );
    await app.waitFor('change 1 of 2', 20_000);
    await app.pressOnCard(']', 'change 2 of 2');
    const s = app.screen();
    expect(s).toMatch(/50 +- line 50\b/);
    expect(s).toMatch(/50 \+ line fifty/);
  }, 60_000);
});
