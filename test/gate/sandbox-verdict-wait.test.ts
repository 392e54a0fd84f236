import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findOnPath } from '../../src/tools/exec/sandbox';
import { createGateHarness, type GateHarness, settled } from '../helpers/gate-harness';
import { waitUntil } from '../helpers/ink';
import { type SessionHarness, startSession } from '../helpers/session-harness';

const hasBwrap = process.platform === 'linux' && findOnPath('bwrap') !== undefined;

/** A `ready` hook the test resolves by hand. */
function gateReady() {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { ready: vi.fn(() => done), finish };
}

// The app draws its first screen before the sandbox probe (issue 16): until the verdict is in, no call
// may be judged on the placeholder ("not sandboxed"), or a person could approve it and it would run bare.
describe('the gate waits for its ready hook before judging any call', () => {
  let h: GateHarness | undefined;
  afterEach(() => h?.cleanup());

  it.each([
    { tool: 'execute_command', args: { command: 'ls' } },
    { tool: 'write_file', args: { path: 'b.txt', content: 'x' } },
    { tool: 'read_file', args: { path: 'a.txt' } },
  ])(
    '$tool: nothing is judged, audited or run until ready, then it runs as usual',
    async ({ tool, args }) => {
      const hook = gateReady();
      h = createGateHarness({ ready: hook.ready, mode: 'auto' });
      h.write('a.txt', 'a\n');
      const result = h.call(tool, args);
      expect(await settled(result)).toBe(false);
      expect(hook.ready).toHaveBeenCalledTimes(1);
      expect(h.ran()).toEqual([]);
      expect(h.records).toEqual([]);
      hook.finish();
      expect((await result).status).toBe('executed');
      // Once resolved, later calls do not ask the hook again.
      await h.call('read_file', { path: 'a.txt' });
      expect(hook.ready).toHaveBeenCalledTimes(1);
    },
  );
});

describe('a session that checks the sandbox after its first screen', () => {
  let s: SessionHarness | undefined;
  afterEach(async () => s?.dispose());

  it('says "checking" with no banner until checkSandbox() answers; then the banner and the verdict are in', async () => {
    s = await startSession([{ text: 'done' }], { approver: true, session: { checkSandboxAfterStart: true } });
    const before = s.session.client.snapshot();
    expect(before.sandboxChecking).toBe(true);
    expect(before.transcript.some((e) => e.kind === 'banner')).toBe(false);
    await s.session.checkSandbox();
    const after = s.session.client.snapshot();
    expect(after.sandboxChecking).toBeUndefined();
    const banner = after.transcript.find((e) => e.kind === 'banner');
    expect(banner?.kind === 'banner' && banner.start.sandbox.kind).toBe(
      after.sandboxed ? 'bubblewrap' : 'off',
    );
    // The same answer again: the probe runs once.
    await s.session.checkSandbox();
    expect(s.session.client.snapshot().transcript.filter((e) => e.kind === 'banner')).toHaveLength(1);
  });

  it('a session closed before the check answers says nothing more (no banner on a closed session)', async () => {
    s = await startSession([{ text: 'done' }], { approver: true, session: { checkSandboxAfterStart: true } });
    const harness = s;
    const checked = harness.session.checkSandbox();
    await harness.session.close();
    const seen = harness.events.length;
    await checked;
    expect(harness.events.length).toBe(seen);
    expect(harness.session.client.snapshot().transcript.some((e) => e.kind === 'banner')).toBe(false);
  });

  it('a root swapped for another folder before the check answers is still caught (its identity is taken at start)', async () => {
    s = await startSession([{ text: 'done' }], { approver: true, session: { checkSandboxAfterStart: true } });
    const harness = s;
    renameSync(harness.root, `${harness.root}-moved`);
    mkdirSync(harness.root);
    try {
      await harness.session.checkSandbox();
      await waitUntil(() => expect(harness.events.some((e) => e.type === 'error')).toBe(true), 10_000);
    } finally {
      rmSync(`${harness.root}-moved`, { recursive: true, force: true });
    }
  });

  it('the temp-file sweep waits for the check too (nothing can run before it), then removes a stale temp', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const stale = `.a.txt.${dead}.a1b2c3d4e5f6.warden-tmp`;
    s = await startSession([{ text: 'done' }], {
      approver: true,
      files: { [stale]: 'half a write' },
      session: { checkSandboxAfterStart: true },
    });
    const harness = s;
    await new Promise<void>((r) => setImmediate(r));
    expect(existsSync(join(harness.root, stale))).toBe(true);
    await harness.session.checkSandbox();
    await waitUntil(() => expect(existsSync(join(harness.root, stale))).toBe(false), 10_000);
    await waitUntil(
      () =>
        expect(harness.events.some((e) => e.type === 'notice' && e.text.includes('interrupted write'))).toBe(
          true,
        ),
      10_000,
    );
  });

  it('a call that comes before anyone started the probe starts it and waits for its verdict', async () => {
    s = await startSession(
      [{ toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] }, { text: 'done' }],
      { approver: true, files: { 'a.txt': 'a\n' }, session: { checkSandboxAfterStart: true, mode: 'auto' } },
    );
    const run = await s.session.run('read it');
    expect(run.status).toBe('done');
    const state = s.session.client.snapshot();
    expect(state.sandboxChecking).toBeUndefined();
    expect(state.transcript.some((e) => e.kind === 'banner')).toBe(true);
  });

  it.skipIf(!hasBwrap)('a session that requires the sandbox checks before it starts, as before', async () => {
    s = await startSession([{ text: 'done' }], {
      approver: true,
      session: { checkSandboxAfterStart: true, sandbox: 'require' },
    });
    const state = s.session.client.snapshot();
    expect(state.sandboxChecking).toBeUndefined();
    expect(state.sandboxed).toBe(true);
    expect(state.transcript.some((e) => e.kind === 'banner')).toBe(true);
  });
});
