/**
 * The scripted demo through a real session, for tests that play it: a fresh demo project and home
 * for each test, the session closed and both removed after it. Call at the top level of a test file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createDemoModel, prepareDemoProject } from '../../src/llm/demo-model';
import { type Session, createSession } from '../../src/session/session';

/** Returns the function that starts a demo session (manual mode, the sandbox if there is one). */
export function demoSessions(): () => Promise<{ session: Session; root: string; home: string }> {
  const dirs: string[] = [];
  let open: Session | undefined;
  afterEach(async () => {
    await open?.close();
    open = undefined;
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return async () => {
    const parent = mkdtempSync(join(tmpdir(), 'warden-demo-'));
    const home = mkdtempSync(join(tmpdir(), 'warden-home-'));
    dirs.push(parent, home);
    const root = await prepareDemoProject(parent);
    open = await createSession({
      root,
      home,
      model: createDemoModel({ tickMs: 0 }),
      mode: 'manual',
      approvalTimeoutSec: 60,
      sandbox: 'auto',
      maxStepsPerTurn: 20,
      contextWindowTokens: 100_000,
    });
    return { session: open, root, home };
  };
}
