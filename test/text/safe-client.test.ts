import { describe, expect, it } from 'vitest';
import type { CoreClient, CoreEvent, CoreState, TranscriptEntry } from '../../src/protocol';
import { initialCoreState } from '../../src/session/session-state';
import { safeClient } from '../../src/text/safe-client';
import { eventHub } from '../helpers/fake-core';

const ESC = '\u001B';

/** A core whose snapshot is a fresh copy each time (as the session's is), with a transcript we replace entries in. */
function fakeCore() {
  const state: CoreState = initialCoreState({
    sessionId: 's',
    root: '/p',
    model: { name: 'm', demo: false },
    mode: 'manual',
    sandboxed: true,
  });
  const hub = eventHub();
  let snapshots = 0;
  const client: CoreClient = {
    subscribe: hub.subscribe,
    changes: hub.changes,
    send: () => {},
    snapshot: () => {
      snapshots += 1;
      return { ...state, transcript: [...state.transcript] };
    },
  };
  return {
    state,
    client,
    emit: hub.emit,
    snapshots: () => snapshots,
  };
}

const notice = (id: string, text: string): TranscriptEntry => ({ kind: 'notice', id, level: 'info', text });

describe('safeClient', () => {
  it('makes each transcript entry safe once: unchanged entries keep their safe copy across snapshots, a replaced one is made safe again', () => {
    const core = fakeCore();
    core.state.transcript.push(notice('n1', `red ${ESC}[31mtext`), notice('n2', 'plain'));
    const safe = safeClient(core.client);
    const first = safe.snapshot();
    expect(first.transcript[0]).toMatchObject({ text: expect.not.stringContaining(ESC) });
    expect(first.transcript[1]).toBe(core.state.transcript[1]);
    core.state.transcript[1] = notice('n2', `now ${ESC}]8;;http://x${ESC}\\link`);
    const second = safe.snapshot();
    expect(second.transcript[0]).toBe(first.transcript[0]);
    expect(second.transcript[1]).not.toBe(first.transcript[1]);
    expect(JSON.stringify(second.transcript[1])).not.toContain(ESC);
  });

  it('a transcript with nothing to clean is passed through as it is', () => {
    const core = fakeCore();
    core.state.transcript.push(notice('n1', 'plain'));
    const snap = safeClient(core.client).snapshot();
    expect(snap.transcript[0]).toBe(core.state.transcript[0]);
  });

  it('every listener gets the same safe event (made safe once)', () => {
    const core = fakeCore();
    const safe = safeClient(core.client);
    const got: CoreEvent[] = [];
    safe.subscribe((e) => got.push(e));
    safe.subscribe((e) => got.push(e));
    core.emit({ type: 'message_delta', agentId: 'main', text: `a ${ESC}[2Jb` });
    expect(got).toHaveLength(2);
    expect(got[0]).toBe(got[1]);
    expect(JSON.stringify(got[0])).not.toContain(ESC);
  });

  it('a listener that names its event types hears only those, each made safe', () => {
    const core = fakeCore();
    const safe = safeClient(core.client);
    const got: CoreEvent[] = [];
    safe.subscribe((e) => got.push(e), ['notice']);
    core.emit({ type: 'message_delta', agentId: 'main', text: 'not for it' });
    core.emit({ type: 'notice', level: 'info', text: `n ${ESC}[31mred` });
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ type: 'notice' });
    expect(JSON.stringify(got[0])).not.toContain(ESC);
  });

  it('a change listener hears only the type of each event, never its text', () => {
    const core = fakeCore();
    const safe = safeClient(core.client);
    const heard: unknown[][] = [];
    const stop = safe.changes((...args: unknown[]) => heard.push(args));
    core.emit({ type: 'message_delta', agentId: 'main', text: `a ${ESC}[2Jb` });
    core.emit({ type: 'turn_done', agentId: 'main', text: 'done' });
    stop();
    core.emit({ type: 'message_delta', agentId: 'main', text: 'after' });
    expect(heard).toEqual([['message_delta'], ['turn_done']]);
  });
});
