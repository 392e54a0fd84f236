import { describe, expect, it, vi } from 'vitest';
import { scheduleWarmUp } from '../../components/warm-up';
import type { CoreClient } from '../../src/protocol';
import { FakeCore, makeRequest } from '../helpers/fake-core';
import { waitUntil } from '../helpers/ink';

/** A FakeCore whose snapshot, subscribe and send are counted. */
function counted(state: ConstructorParameters<typeof FakeCore>[0] = {}) {
  const core = new FakeCore(state);
  const snapshot = vi.spyOn(core, 'snapshot');
  const subscribe = vi.spyOn(core, 'subscribe');
  const send = vi.spyOn(core, 'send');
  return { core: core as CoreClient, snapshot, subscribe, send };
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};

describe('warming the first card while the person types (issue 16)', () => {
  it('renders the app off-screen with a command card, then a diff card, sending nothing and writing nothing', async () => {
    const c = counted();
    const write = vi.spyOn(process.stdout, 'write');
    const frames: string[] = [];
    scheduleWarmUp(
      c.core,
      () => 100,
      (frame) => frames.push(frame),
    );
    await waitUntil(() => expect(frames.length).toBe(2), 20_000);
    await turns(5);
    expect(frames.length).toBe(2);
    // The whole card: its header, the sample command and its keys' grace.
    expect(frames[0]).toContain('Approval needed');
    expect(frames[0]).toContain('git status --short');
    expect(frames[0]).toContain('keys paused');
    // Then a change to a file with no grammar: the diff view, without the highlighter.
    expect(frames[1]).toContain('Approval needed');
    expect(frames[1]).toContain('warm-up.txt');
    expect(frames[1]).toContain('warm-up.txt +2 −2');
    expect(frames[1]).toContain('value9 = 9;');
    expect(frames[1]).toContain('keys paused');
    // Each render read the real state once for its sample, after checking that nothing runs.
    expect(c.snapshot).toHaveBeenCalledTimes(4);
    expect(c.send).not.toHaveBeenCalled();
    expect(c.subscribe).not.toHaveBeenCalled();
    expect(write).not.toHaveBeenCalled();
    write.mockRestore();
  });

  it.each([
    { name: 'a turn runs', state: { busy: true } },
    { name: 'a card already waits', state: { pending: [makeRequest()] } },
    // Sent, not yet running: the turn starts after an await, the prompt is in the transcript at once.
    {
      name: 'the person sent a prompt',
      state: { transcript: [{ kind: 'user' as const, id: 'u1', text: 'go' }] },
    },
  ])('does nothing when $name (the real card must not wait for it)', async ({ state }) => {
    const c = counted(state);
    scheduleWarmUp(c.core, () => 100);
    await turns(10);
    expect(c.snapshot).toHaveBeenCalledTimes(1);
  });

  it('stops when told to', async () => {
    const c = counted();
    const stop = scheduleWarmUp(c.core, () => 100);
    stop();
    await turns(10);
    expect(c.snapshot).not.toHaveBeenCalled();
  });
});
