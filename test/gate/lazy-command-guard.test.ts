import { afterEach, describe, expect, it, vi } from 'vitest';
import { failClosedCommandGuard, loadCommandGuard } from '../../src/policy/command/command-guard';
import type { CommandGuard } from '../../src/policy/command/command-types';
import { createGateHarness, type GateHarness, settled } from '../helpers/gate-harness';
import { type SessionHarness, startSession } from '../helpers/session-harness';

const realGuard = await loadCommandGuard();

/** A loader the test finishes by hand, over a guard that judges nothing until it has. */
function lazyGuard() {
  let guard: CommandGuard = failClosedCommandGuard('the command parser is still loading');
  let finish: () => void = () => {};
  const loaded = new Promise<void>((resolve) => {
    finish = () => {
      guard = realGuard;
      resolve();
    };
  });
  const load = vi.fn((_command?: string) => loaded);
  return { commands: { judge: (c: string) => guard.judge(c) } as CommandGuard, load, finish };
}

describe('the shell grammar loads when a command is first judged (issue 16)', () => {
  let h: GateHarness | undefined;
  afterEach(() => h?.cleanup());

  it('a command call waits for the parser, then is judged by it (a read-only command runs unasked)', async () => {
    const lazy = lazyGuard();
    h = createGateHarness({ commands: lazy.commands, loadCommandGuard: lazy.load, mode: 'auto' });
    const result = h.call('execute_command', { command: 'ls -la' });
    expect(await settled(result)).toBe(false);
    expect(lazy.load).toHaveBeenCalledTimes(1);
    expect(h.ran()).toEqual([]);
    lazy.finish();
    expect((await result).status).toBe('executed');
    expect(h.records.at(-1)?.rule).not.toBe('cannot-judge');
    // Each command call is made ready for its own text (the loader loads once, and only what it needs).
    await h.call('execute_command', { command: 'pwd' });
    // A model's arguments arrive as JSON text: the command is read from them as the check reads them.
    await h.call('execute_command', JSON.stringify({ command: 'ls src' }));
    await h.call('execute_command', '{"command": "ls src"');
    expect(lazy.load.mock.calls).toEqual([['ls -la'], ['pwd'], ['ls src'], [undefined]]);
  });

  it.each([
    { tool: 'read_file', args: { path: 'a.txt' } },
    { tool: 'write_file', args: { path: 'b.txt', content: 'x' } },
  ])('$tool does not wait for the parser, nor load it', async ({ tool, args }) => {
    const lazy = lazyGuard();
    h = createGateHarness({ commands: lazy.commands, loadCommandGuard: lazy.load, mode: 'auto' });
    h.write('a.txt', 'a\n');
    const result = await h.call(tool, args);
    expect(result.status).toBe('executed');
    expect(lazy.load).not.toHaveBeenCalled();
  });
});

describe('when the grammar fails to load, every command asks', () => {
  let s: SessionHarness | undefined;
  afterEach(async () => s?.dispose());

  it('a session with a failing loader: a write runs without loading it; a command asks, with the warning shown', async () => {
    const load = vi.fn(() => Promise.reject(new Error('no wasm here')));
    s = await startSession(
      [
        { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
        { toolCalls: [{ name: 'execute_command', args: { command: 'ls' } }] },
        { text: 'done' },
      ],
      { approver: true, session: { loadCommandGuard: load, mode: 'auto' } },
    );
    const run = s.session.run('write then list');
    const request = await s.nextRequest();
    // The write ran (auto mode) before anything loaded the parser; the command is the first to need it.
    expect(request.tool).toBe('execute_command');
    expect(load).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(request.risk.reasons)).toMatch(/command guard is unavailable/i);
    expect(
      s.events.some(
        (e) => e.type === 'notice' && /command parser did not load.*every command will ask/.test(e.text),
      ),
    ).toBe(true);
    s.decide(request.id, { kind: 'reject' });
    await run;
  });
});
