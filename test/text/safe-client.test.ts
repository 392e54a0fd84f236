import { describe, expect, it } from 'vitest';
import type {
  ApprovalRequest,
  CoreClient,
  CoreCommand,
  CoreEvent,
  CoreState,
  GrantScope,
  TranscriptEntry,
} from '../../src/protocol';
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

describe('safeClient: an approve-all scope goes back to the core as offered', () => {
  const scope = (glob: string): GrantScope => ({
    tool: 'write_file',
    match: { kind: 'path_glob', glob },
    agents: { kind: 'all' },
    label: `write_file ${glob}`,
    ruleText: '{}',
  });
  const sent = (offered: GrantScope[], chosen: GrantScope): GrantScope | undefined => {
    const commands: CoreCommand[] = [];
    const state = initialCoreState({
      sessionId: 's',
      root: '/p',
      model: { name: 'm', demo: false },
      mode: 'manual',
      sandboxed: true,
    });
    state.pending = [{ id: 'r1', grantOptions: offered } as unknown as ApprovalRequest];
    const hub = eventHub();
    const safe = safeClient({
      subscribe: hub.subscribe,
      changes: hub.changes,
      send: (command) => commands.push(command),
      snapshot: () => state,
    });
    const shown = safe.snapshot().pending[0]?.grantOptions ?? [];
    safe.send({
      type: 'decide',
      id: 'r1',
      decision: { kind: 'approve_all', scope: shown[offered.indexOf(chosen)] as GrantScope },
    });
    const command = commands[0];
    return command?.type === 'decide' && command.decision.kind === 'approve_all'
      ? command.decision.scope
      : undefined;
  };

  it('a scope that had to be made visible is mapped back to its original', () => {
    const hidden = scope('src/a\u200Bb/**');
    expect(sent([hidden], hidden)?.match).toEqual({ kind: 'path_glob', glob: 'src/a\u200Bb/**' });
  });

  it('two offered scopes that read the same once shown grant the one whose text is what was shown', () => {
    const literal = scope('src/a⟨U+200B⟩b/**');
    const hidden = scope('src/a\u200Bb/**');
    // The person cannot tell them apart: the grant is the text they read, never the hidden one.
    for (const chosen of [literal, hidden])
      expect(sent([hidden, literal], chosen)?.match).toEqual({
        kind: 'path_glob',
        glob: 'src/a⟨U+200B⟩b/**',
      });
  });
});
