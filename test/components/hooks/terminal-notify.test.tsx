import { EventEmitter } from 'node:events';
import { render, Text } from 'ink';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { notificationSequence, useTerminalNotify } from '../../../components/hooks/use-terminal-notify';
import type { CoreClient, CoreState } from '../../../src/protocol';
import { eventHub } from '../../helpers/fake-core';

// Ink writes straight through when it thinks it runs in CI (read as it loads): here it must not.
const ci = vi.hoisted(() => {
  const was = process.env.CI;
  process.env.CI = 'false';
  return was;
});
afterAll(() => {
  if (ci === undefined) delete process.env.CI;
  else process.env.CI = ci;
});

/** A terminal that keeps each write. */
class Terminal extends EventEmitter {
  readonly writes: string[] = [];
  columns = 80;
  rows = 24;
  isTTY = true;
  write(data: string): boolean {
    this.writes.push(data);
    return true;
  }
}

function Probe({ client }: { client: CoreClient }) {
  useTerminalNotify(client);
  return <Text>a frame the notification must not redraw</Text>;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("the terminal's notification goes out on its own (issue 34)", () => {
  it('one write of the sequence alone: the frame is neither erased nor drawn again around it', async () => {
    const hub = eventHub();
    const client: CoreClient = { ...hub, send: () => {}, snapshot: () => ({}) as CoreState };
    const terminal = new Terminal();
    const stdout = terminal as unknown as NodeJS.WriteStream;
    const app = render(<Probe client={client} />, { stdout, patchConsole: false, exitOnCtrlC: false });
    await tick();
    expect(terminal.writes.join('')).toContain('a frame the notification');
    const before = terminal.writes.length;
    const notification = { kind: 'approval' as const, text: 'warden asks: touch x', project: '/p' };
    hub.emit({ type: 'notify', notification, terminal: 'osc9' });
    // Through Ink's own write the frame was erased before the bytes and drawn again after them.
    expect(terminal.writes.slice(before)).toEqual([notificationSequence('osc9', notification)]);
    app.unmount();
  });

  // The text names the call: a command the model chose, a file name a cloned repository holds. Straight
  // to the terminal now, so no byte of it may start or end a sequence of its own.
  it('a hostile call in the text: each kind writes one sequence, its only controls its own', async () => {
    const hub = eventHub();
    const client: CoreClient = { ...hub, send: () => {}, snapshot: () => ({}) as CoreState };
    const terminal = new Terminal();
    const stdout = terminal as unknown as NodeJS.WriteStream;
    const app = render(<Probe client={client} />, { stdout, patchConsole: false, exitOnCtrlC: false });
    await tick();
    const hostile = [
      'touch x\u0007\u001b]52;c;cm0gLXJmIH4=\u0007', // ends OSC 9 early, then writes the clipboard
      '\u001b[2J\u001b[H\u001b]0;owned\u001b\\', // clears the screen, sets the title, ST
      '\u009b2J\u009d0;c1 title\u009c', // the same in C1 controls
      'a\r\nb\u007f;notify;forged;text', // line ends, DEL, a forged OSC 777 field
    ];
    for (const [kind, terminalKind] of [
      ['osc9', 'osc9'],
      ['osc777', 'osc777'],
      ['bell', 'bell'],
    ] as const) {
      for (const text of hostile) {
        const before = terminal.writes.length;
        hub.emit({
          type: 'notify',
          notification: { kind: 'approval', text, project: '/p' },
          terminal: terminalKind,
        });
        const written = terminal.writes.slice(before);
        expect(written).toHaveLength(1);
        const bytes = written[0] as string;
        const controls = [...bytes].filter((c) => /[\u0000-\u001f\u007f-\u009f]/.test(c));
        expect(controls, `${kind}: ${JSON.stringify(bytes)}`).toEqual(
          kind === 'bell' ? ['\u0007'] : ['\u001b', '\u0007'],
        );
        expect(bytes.startsWith(kind === 'bell' ? '\u0007' : '\u001b]')).toBe(true);
        if (kind === 'osc777') expect(bytes.split(';')).toHaveLength(4);
      }
    }
    app.unmount();
  });
});
