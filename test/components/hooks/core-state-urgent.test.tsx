import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { useCoreState } from '../../../components/hooks/use-core-state';
import type { CoreClient, CoreEvent, CoreState } from '../../../src/protocol';
import { eventHub } from '../../helpers/fake-core';

/** A core whose snapshots the test counts: the hook reads one each time it hands React a new state. */
function fakeCore(): { reads: number; client: CoreClient; emit(event: CoreEvent): void } {
  const hub = eventHub();
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    client: {
      subscribe: hub.subscribe,
      changes: hub.changes,
      send: () => {},
      snapshot: () => {
        reads += 1;
        return { reads } as unknown as CoreState;
      },
    },
    emit: hub.emit,
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
