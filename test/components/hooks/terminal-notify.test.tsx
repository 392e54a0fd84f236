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
});
