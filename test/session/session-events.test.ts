import { describe, expect, it, vi } from 'vitest';
import type { CoreEvent, CoreState } from '../../src/protocol';
import { SessionEvents } from '../../src/session/session-events';

const notice = (text: string): CoreEvent => ({ type: 'notice', level: 'info', text });

describe('SessionEvents: emit, taps, listeners and the snapshot cache', () => {
  it("the session's taps run first, in the order added, then every listener", () => {
    const events = new SessionEvents();
    const order: string[] = [];
    events.tap(() => order.push('tap 1'));
    events.listen(() => order.push('listener'));
    events.tap(() => order.push('tap 2'));
    events.emit(notice('x'));
    expect(order).toEqual(['tap 1', 'tap 2', 'listener']);
  });

  it("a listener's failure stops neither the others nor the emitter; unsubscribing stops delivery", () => {
    const events = new SessionEvents();
    const heard: string[] = [];
    events.listen(() => {
      throw new Error('boom');
    });
    const stop = events.listen((e) => heard.push(e.type));
    expect(() => events.emit(notice('a'))).not.toThrow();
    stop();
    events.emit(notice('b'));
    expect(heard).toEqual(['notice']);
  });

  it('a snapshot is the same object until the next event, a new one after', () => {
    const events = new SessionEvents();
    let built = 0;
    const build = () => ({ n: ++built }) as unknown as CoreState;
    const first = events.snapshot(build);
    expect(events.snapshot(build)).toBe(first);
    events.emit(notice('x'));
    const second = events.snapshot(build);
    expect(second).not.toBe(first);
    expect(built).toBe(2);
  });

  it('a running call’s output goes through the relay (coalesced), not straight to the listeners', async () => {
    const events = new SessionEvents();
    const heard: CoreEvent[] = [];
    events.listen((e) => heard.push(e));
    events.emit({ type: 'tool_output', agentId: 'main', callId: 'c1', chunk: 'one ' } as CoreEvent);
    events.emit({ type: 'tool_output', agentId: 'main', callId: 'c1', chunk: 'two' } as CoreEvent);
    await vi.waitFor(() => expect(heard.some((e) => e.type === 'tool_output')).toBe(true));
    expect(heard.filter((e) => e.type === 'tool_output')).toHaveLength(1);
    events.relay.close();
  });
});
