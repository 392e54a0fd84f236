// When the gate starts a turn's checkpoint for a file-changing call: while the person reads the card,
// after what the card's announcement scheduled (the UI's frame), never on the way to the card — the
// first git spawn blocks the event loop for 5-20 ms (issue 16, the first card of a session).
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/tools/types';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

const touch = defineTool({
  name: 'touch_file',
  description: 'Changes a file (test).',
  schema: z.strictObject({ path: z.string() }),
  kind: 'write',
  guarded: { paths: ['path'] },
  changesFiles: true,
  async execute() {
    return { ok: true, output: 'touched' };
  },
});

let h: GateHarness | undefined;
afterEach(() => h?.cleanup());

describe("a file-changing call's checkpoint", () => {
  it('starts after the work the announcement scheduled (the frame), and before the call runs', async () => {
    const order: string[] = [];
    h = createGateHarness({
      tools: [touch],
      onEvent: (event) => {
        if (event.type === 'requested') setImmediate(() => order.push('frame drawn'));
      },
    });
    let started = () => {};
    const checkpointStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const checkpoint = async () => {
      order.push('checkpoint');
      started();
    };
    const result = h.call('touch_file', { path: 'a.txt' }, { checkpoint });
    const request = await h.nextRequest();
    expect(order).toEqual([]);
    await checkpointStarted;
    expect(order).toEqual(['frame drawn', 'checkpoint']);
    h.gate.decide(request.id, { kind: 'approve' });
    expect((await result).status).toBe('executed');
  });

  it('an approval that comes first still takes the checkpoint before the call runs', async () => {
    h = createGateHarness({ tools: [touch] });
    const taken: string[] = [];
    let shared: Promise<void> | undefined;
    // One checkpoint per turn, shared by whoever asks first (as the session's store does).
    const checkpoint = (label: string) => {
      taken.push(label);
      shared ??= Promise.resolve();
      return shared;
    };
    const result = h.call('touch_file', { path: 'a.txt' }, { checkpoint });
    const request = await h.nextRequest();
    h.gate.decide(request.id, { kind: 'approve' });
    expect((await result).status).toBe('executed');
    expect(taken[0]).toBe('touch_file');
  });
});
