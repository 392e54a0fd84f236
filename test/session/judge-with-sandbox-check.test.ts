import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SessionHarness, startSession } from '../helpers/session-harness';

// The judge's module is loaded lazily: this file's registry sees when it is first imported.
const loaded = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/policy/command/command-judge', async (original) => {
  loaded.count++;
  return await original();
});

describe("the command judge's module loads with the deferred sandbox check (issue 34)", () => {
  let s: SessionHarness | undefined;
  afterEach(async () => s?.dispose());

  it('not before the deferred check starts; by the time it answered, with no command asked for', async () => {
    s = await startSession([{ text: 'done' }], { approver: true, session: { checkSandboxAfterStart: true } });
    // Start-up does not pay for it: the first screen comes first.
    expect(loaded.count).toBe(0);
    await s.session.checkSandbox();
    // The import started with the probe and finishes on its own (no command, no turn, no warm-up).
    await vi.waitFor(() => expect(loaded.count).toBe(1));
    // Loaded once: the first command's own preparation finds it.
    await s.session.loadCommandGuard('ls -la');
    expect(loaded.count).toBe(1);
  });
});
