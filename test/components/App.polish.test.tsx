/** Ctrl+C interrupts then quits; Shift+Tab into auto asks once (issue 13 §5). */
import { describe, expect, it } from 'vitest';
import { CTRL_C_IDLE, type CtrlCState, ctrlCStep } from '../../components/hooks/use-ctrl-c';
import type { Mode, StartInfo, TranscriptEntry } from '../../src/protocol';
import { FakeCore } from '../helpers/fake-core';
import { KEY, press, waitForFrame, waitUntil } from '../helpers/ink';
import { renderApp } from './app-harness';

const HINT = 'press Ctrl+C again to quit';

describe('ctrlCStep', () => {
  const W = 2000;
  it.each<[string, CtrlCState, boolean, number, string, CtrlCState]>([
    [
      'busy: the first press interrupts',
      CTRL_C_IDLE,
      true,
      10,
      'interrupt',
      { interrupted: true, armedUntil: 0 },
    ],
    [
      'busy, interrupt already asked: arms',
      { interrupted: true, armedUntil: 0 },
      true,
      10,
      'arm',
      { interrupted: true, armedUntil: 10 + W },
    ],
    ['idle: arms', CTRL_C_IDLE, false, 10, 'arm', { interrupted: false, armedUntil: 10 + W }],
    [
      'armed, within the window: quits',
      { interrupted: false, armedUntil: 100 },
      false,
      99,
      'quit',
      CTRL_C_IDLE,
    ],
    [
      'armed, busy again, within the window: quits',
      { interrupted: true, armedUntil: 100 },
      true,
      50,
      'quit',
      CTRL_C_IDLE,
    ],
    [
      'armed, window passed: arms again',
      { interrupted: false, armedUntil: 100 },
      false,
      100,
      'arm',
      { interrupted: false, armedUntil: 100 + W },
    ],
  ])('%s', (_, state, busy, now, action, next) => {
    expect(ctrlCStep(state, { busy, now, windowMs: W })).toEqual({ action, state: next });
  });
});

describe('Ctrl+C in the app', () => {
  it('interrupts a running turn first (no hint, no quit), then quits on two presses when idle', async () => {
    const core = new FakeCore({ busy: true });
    const { stdin, lastFrame } = await renderApp(core);
    await press(stdin, KEY.ctrlC);
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'cancel' }]));
    expect(lastFrame()).not.toContain(HINT);
    core.update({ busy: false });
    await waitForFrame(lastFrame, (f) => !f.includes('working'));
    await press(stdin, KEY.ctrlC);
    await waitForFrame(lastFrame, HINT);
    expect(core.sent).toEqual([{ type: 'cancel' }]);
    await press(stdin, KEY.ctrlC);
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'cancel' }, { type: 'quit' }]));
  });

  it('a turn that keeps running after its interrupt: the next presses arm and quit', async () => {
    const core = new FakeCore({ busy: true });
    const { stdin, lastFrame } = await renderApp(core);
    await press(stdin, KEY.ctrlC);
    await waitUntil(() => expect(core.sentOf('cancel')).toHaveLength(1));
    await press(stdin, KEY.ctrlC);
    await waitForFrame(lastFrame, HINT);
    await press(stdin, KEY.ctrlC);
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'cancel' }, { type: 'quit' }]));
  });

  it('each new turn is interrupted by its own first press', async () => {
    const core = new FakeCore({ busy: true });
    const { stdin, lastFrame } = await renderApp(core);
    await press(stdin, KEY.ctrlC);
    await waitUntil(() => expect(core.sentOf('cancel')).toHaveLength(1));
    core.update({ busy: false });
    await waitForFrame(lastFrame, (f) => !f.includes('working'));
    core.update({ busy: true });
    await waitForFrame(lastFrame, 'working');
    await press(stdin, KEY.ctrlC);
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'cancel' }, { type: 'cancel' }]));
  });
});

describe('Shift+Tab into auto', () => {
  it.each<[Mode, Mode]>([
    ['manual', 'auto-edit'],
    ['auto-edit', 'plan'],
    ['auto', 'manual'],
  ])('from %s switches to %s at once', async (from, to) => {
    const core = new FakeCore({ mode: from });
    const { stdin, lastFrame } = await renderApp(core);
    await press(stdin, KEY.shiftTab);
    await waitUntil(() => expect(core.sent).toEqual([{ type: 'set_mode', mode: to }]));
    expect(lastFrame()).not.toContain('Switch to auto mode?');
  });

  it.each<[string, string, { type: 'set_mode'; mode: Mode }[]]>([
    ['y confirms', 'y', [{ type: 'set_mode', mode: 'auto' }]],
    ['Enter confirms', KEY.enter, [{ type: 'set_mode', mode: 'auto' }]],
    ['n keeps plan', 'n', []],
    ['Esc keeps plan', KEY.escape, []],
    ['Shift+Tab again goes on to manual', KEY.shiftTab, [{ type: 'set_mode', mode: 'manual' }]],
  ])('from plan asks first: %s', async (_, key, sent) => {
    const core = new FakeCore({ mode: 'plan' });
    const { stdin, lastFrame } = await renderApp(core, { columns: 160 });
    await press(stdin, KEY.shiftTab);
    const frame = await waitForFrame(lastFrame, 'Switch to auto mode?');
    expect(frame).toContain('y switch to auto · n/Esc keep · Shift+Tab skip to manual');
    expect(core.sent).toEqual([]);
    await press(stdin, key);
    await waitForFrame(lastFrame, (f) => !f.includes('Switch to auto mode?'));
    await waitUntil(() => expect(core.sent).toEqual(sent));
    // The answer key went to the row, not into the prompt.
    expect(lastFrame()).not.toMatch(/› [yn]/);
  });
});

describe('start banner', () => {
  const start: StartInfo = {
    model: 'gpt-4o',
    demo: false,
    endpoint: 'llm.example.com:8443',
    root: '/srv/proj',
    mode: 'manual',
    sandbox: { kind: 'bubblewrap' },
  };
  const banner = (s: Partial<StartInfo>): TranscriptEntry => ({
    kind: 'banner',
    id: 'b',
    start: { ...start, ...s },
  });

  it.each<[string, Partial<StartInfo>, string[], string[]]>([
    [
      'model, endpoint host, root, mode, sandbox on',
      {},
      [
        'warden · model gpt-4o at llm.example.com:8443',
        'project /srv/proj',
        'mode manual · sandbox on (bubblewrap)',
      ],
      ['DEMO'],
    ],
    [
      'sandbox off with its reason',
      { sandbox: { kind: 'off', reason: 'bubblewrap (bwrap) is not installed' }, mode: 'auto' },
      ['mode auto · ⚠ sandbox off (bubblewrap (bwrap) is not installed): every command asks'],
      ['sandbox on'],
    ],
    [
      'the demo model, labelled',
      { demo: true, model: 'scripted-demo', endpoint: undefined },
      ['warden DEMO · scripted model scripted-demo, no API key'],
      [' at '],
    ],
    ['model text sanitised', { model: 'gpt\u001b]0;pwned\u0007' }, ['gpt␛]0;pwned␇'], ['\u001b]0;']],
  ])('%s', async (_, patch, shows, hides) => {
    const core = new FakeCore({ transcript: [banner(patch)] });
    const { lastFrame } = await renderApp(core, { columns: 140 });
    const frame = await waitForFrame(lastFrame, 'project /srv/proj');
    // The banner's box only (the status bar below says some of the same words).
    const box = frame.slice(frame.indexOf('╭'), frame.indexOf('╯') + 1);
    for (const text of shows) expect(box).toContain(text);
    for (const text of hides) expect(box).not.toContain(text);
  });
});
