import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { useCoreState } from '../../../components/hooks/use-core-state';
import type { CoreClient, CoreEvent, CoreState } from '../../../src/protocol';

/** A core whose snapshots the test counts: the hook reads one each time it hands React a new state. */
function fakeCore(): { reads: number; client: CoreClient; emit(event: CoreEvent): void } {
  const listeners = new Set<(e: CoreEvent) => void>();
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    client: {
      subscribe: (fn) => {
        listeners.add(fn);
        return () => listeners.delete(fn);
      },
      changes: (fn) => {
        const ofType = (e: CoreEvent) => fn(e.type);
        listeners.add(ofType);
        return () => listeners.delete(ofType);
      },
      send: () => {},
      snapshot: () => {
        reads += 1;
        return { reads } as unknown as CoreState;
      },
    },
    emit: (event) => {
      for (const fn of listeners) fn(event);
    },
  };
}

function Probe({ client }: { client: CoreClient }) {
  useCoreState(client);
  return <Text>probe</Text>;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('useCoreState: what a person waits for is drawn at once', () => {
  it("a turn's end is handed to React at once; streamed text waits for the frame gap", async () => {
    const core = fakeCore();
    const app = render(<Probe client={core.client} />);
    await tick();
    const before = core.reads;
    core.emit({ type: 'message_delta', agentId: 'main', text: 'a' });
    expect(core.reads).toBe(before);
    core.emit({ type: 'turn_done', agentId: 'main', text: 'a' });
    expect(core.reads).toBe(before + 1);
    app.unmount();
  });
});
