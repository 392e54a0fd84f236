import { Text, useInput } from 'ink';
import { render } from 'ink-testing-library';
import type { ReactNode } from 'react';
import { App, type DrawerProps } from '../../components/App';
import type { FakeCore } from '../helpers/fake-core';
import { waitForFrame } from '../helpers/ink';

/** A stand-in drawer: shows what App passed it, and approves the first request on "y". */
export function FakeDrawer({
  client,
  pending,
  width,
  height,
  isActive,
  onFullScreen,
}: DrawerProps): ReactNode {
  useInput(
    (input) => {
      const first = pending[0];
      if (input === 'y' && first)
        client.send({ type: 'decide', id: first.id, decision: { kind: 'approve' } });
      if (input === 'f') onFullScreen?.(true);
    },
    { isActive },
  );
  return (
    <Text>
      DRAWER {pending.length} pending · active={String(isActive)} · {width}x{height}
    </Text>
  );
}

/** Sets the fake terminal's size the way a real one changes it: new dimensions, then 'resize'. */
export function resize(stdout: NodeJS.EventEmitter, columns: number, rows: number): void {
  Object.defineProperty(stdout, 'columns', { value: columns, configurable: true });
  Object.defineProperty(stdout, 'rows', { value: rows, configurable: true });
  stdout.emit('resize');
}

/** Renders App on `core` at 100×30 with the stand-in drawer, and waits for the first frame. */
export async function renderApp(
  core: FakeCore,
  options: { columns?: number; rows?: number; realDrawer?: boolean } = {},
) {
  const view = render(
    <App
      client={core}
      drawer={options.realDrawer ? undefined : FakeDrawer}
      home="/home/tester"
      now={() => new Date(2025, 0, 2, 12)}
    />,
  );
  resize(view.stdout, options.columns ?? 100, options.rows ?? 30);
  await waitForFrame(view.lastFrame, 'mode ');
  return view;
}
