import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CoreEvent } from '../../src/protocol';
import { lazyCommandGuard } from '../../src/session/wiring/command-guard-loader';
import { createGateHarness, type GateHarness, settled } from '../helpers/gate-harness';

// A plain command's card is shown before the shell grammar loads (issue 34); what a person makes of
// it is still judged by the grammar — an edit is never waved on because the parser is loading.
describe('a plain command judged without the grammar, then edited', () => {
  let h: GateHarness | undefined;
  afterEach(() => {
    vi.useRealTimers();
    h?.cleanup();
  });

  function gateWithLazyGuard() {
    const events: CoreEvent[] = [];
    const lazy = lazyCommandGuard(undefined, (e) => events.push(e));
    const ready = vi.fn(lazy.ready);
    h = createGateHarness({ commands: lazy.commands, loadCommandGuard: ready });
    return { h, ready, events };
  }

  it('an edit into more than words before the grammar loads is refused with why, the card stays; once loaded it is judged', async () => {
    const { h, ready } = gateWithLazyGuard();
    const result = h.call('execute_command', { command: 'touch x' });
    const request = await h.nextRequest();
    expect(ready).toHaveBeenCalledWith('touch x');
    const edit = { command: 'touch x && sudo rm -rf y' };
    expect(h.gate.decide(request.id, { kind: 'edit', args: edit, review: true })).toEqual({
      ok: false,
      error: expect.stringMatching(/shell parser is still loading.*send the edit again/),
    });
    expect(await settled(result)).toBe(false);
    expect(h.broker.pending().map((r) => r.id)).toEqual([request.id]);
    // The refused edit started the load; once done, the same edit meets the deny rule it holds.
    await ready();
    expect(h.gate.decide(request.id, { kind: 'edit', args: edit, review: true })).toEqual({
      ok: false,
      error: expect.stringMatching(/^blocked \(cmd-sudo\)/),
    });
    h.gate.decide(request.id, { kind: 'reject', reason: 'no' });
    expect((await result).status).toBe('rejected');
    expect(h.ran()).toEqual([]);
  });

  it('an edit that approves at once (no review) before the grammar loads is refused too; nothing runs', async () => {
    const { h } = gateWithLazyGuard();
    const result = h.call('execute_command', { command: 'touch x' });
    const request = await h.nextRequest();
    const sneaky = { command: 'touch x; sudo rm -rf y' };
    expect(h.gate.decide(request.id, { kind: 'edit', args: sneaky })).toEqual({
      ok: false,
      error: expect.stringMatching(/shell parser is still loading/),
    });
    expect(await settled(result)).toBe(false);
    h.gate.decide(request.id, { kind: 'reject', reason: 'no' });
    expect((await result).status).toBe('rejected');
    expect(h.ran()).toEqual([]);
  });

  it('a plain call and one that is more than words side by side: each is judged by what it needs', async () => {
    const { h } = gateWithLazyGuard();
    h.setMode('auto');
    const [plain, hidden] = await Promise.all([
      h.call('execute_command', { command: 'ls -la' }),
      h.call('execute_command', { command: 'ls -la; sudo rm -rf y' }),
    ]);
    expect(plain.status).toBe('executed');
    expect(hidden.status).toBe('blocked');
    expect(JSON.stringify(hidden)).toMatch(/cmd-sudo/);
    expect(h.ran()).toEqual(['execute_command {"command":"ls -la"}']);
  });

  it('a plain line a deny rule names is denied without the grammar (no card, nothing runs)', async () => {
    const { h, ready } = gateWithLazyGuard();
    const envelope = await h.call('execute_command', { command: 'sudo rm -rf build' });
    expect(envelope.status).toBe('blocked');
    expect(JSON.stringify(envelope)).toMatch(/cmd-sudo/);
    expect(ready.mock.calls).toEqual([['sudo rm -rf build']]);
    expect(h.broker.pending()).toEqual([]);
    expect(h.ran()).toEqual([]);
  });

  it('an edit that stays words is judged at once without the grammar', async () => {
    const { h } = gateWithLazyGuard();
    const result = h.call('execute_command', { command: 'touch x' });
    const request = await h.nextRequest();
    expect(h.gate.decide(request.id, { kind: 'edit', args: { command: 'touch y' }, review: true })).toEqual({
      ok: true,
    });
    await h.until(() => h.broker.pending().find((r) => r.id === request.id && r.edited !== undefined));
    h.gate.decide(request.id, { kind: 'approve' });
    expect((await result).status).toBe('executed');
    expect(h.ran()).toEqual(['execute_command {"command":"touch y"}']);
  });

  it('while a person reads a command card, the grammar loads (the gate asks for it after a moment)', async () => {
    const { h, ready } = gateWithLazyGuard();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const result = h.call('execute_command', { command: 'touch x' });
    const request = await h.nextRequest();
    vi.advanceTimersByTime(99);
    expect(ready.mock.calls).toEqual([['touch x']]);
    vi.advanceTimersByTime(1);
    expect(ready.mock.calls).toEqual([['touch x'], []]);
    vi.useRealTimers();
    h.gate.decide(request.id, { kind: 'reject', reason: 'no' });
    await result;
  });

  it('an answer at once cancels that load: a card approved quickly leaves the grammar unloaded', async () => {
    const { h, ready } = gateWithLazyGuard();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const result = h.call('execute_command', { command: 'touch x' });
    h.gate.decide((await h.nextRequest()).id, { kind: 'approve' });
    // The call ends before any timer runs; then every timer left runs (the load's was cleared).
    expect((await result).status).toBe('executed');
    vi.runAllTimers();
    vi.useRealTimers();
    expect(ready.mock.calls).toEqual([['touch x']]);
  });
});
