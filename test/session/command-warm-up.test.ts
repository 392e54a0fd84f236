// The first command's call-independent work is done ahead of it (issue 34): the warm-up loads the
// judge's module, then runs each tool's warm() once, after the sandbox verdict; execute_command's
// warm() leaves the protection scan in its cache, so the first run only checks it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PathFence } from '../../src/policy/guards/path-guard';
import { commandWarmUp } from '../../src/session/command-warm-up';
import { createExecuteCommandTool, defaultExecuteCommandEffects } from '../../src/tools/exec/execute-command';
import { findOnPath } from '../../src/tools/exec/sandbox';
import { ProtectionCache } from '../../src/tools/exec/sandbox-protect-cache';
import { type AnyTool, defineTool } from '../../src/tools/types';
import { allowAllCommands } from '../helpers/tool-context';

const bwrap = process.platform === 'linux' ? findOnPath('bwrap') : undefined;
let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

function project(): string {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-warm-')));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export {};\n');
  // An hour old, so the scan's plan is not racy and can be kept (the cache's window is 0 here too).
  const past = Date.now() / 1000 - 3600;
  for (const p of [join(root, 'src', 'a.ts'), join(root, 'src'), root]) utimesSync(p, past, past);
  return root;
}

describe('commandWarmUp', () => {
  it('loads the judge, waits for the sandbox verdict, warms each tool once, once per session', async () => {
    const order: string[] = [];
    const tool = (name: string): AnyTool =>
      defineTool({
        ...createExecuteCommandTool(),
        name,
        warm: ({ root: at }) => void order.push(`${name} ${at === root}`),
      });
    const dir = project();
    const start = commandWarmUp({
      sandboxChecked: async () => void order.push('sandbox'),
      tools: [tool('one'), tool('two')],
      root: dir,
      fence: new PathFence(dir),
      prepareJudge: async () => void order.push('judge'),
      closed: () => false,
    });
    await Promise.all([start(), start()]);
    await start();
    expect(order).toEqual(['judge', 'sandbox', 'one true', 'two true']);
  });

  it('stops once the session closed', async () => {
    const order: string[] = [];
    let closed = false;
    const dir = project();
    const start = commandWarmUp({
      sandboxChecked: async () => {
        order.push('sandbox');
        closed = true;
      },
      tools: [defineTool({ ...createExecuteCommandTool(), warm: () => void order.push('warm') })],
      root: dir,
      fence: new PathFence(dir),
      prepareJudge: async () => void order.push('judge'),
      closed: () => closed,
    });
    await start();
    expect(order).toEqual(['judge', 'sandbox']);
  });
});

describe.skipIf(!bwrap)("execute_command's warm()", () => {
  it('leaves the protection scan ready: the first run uses it', async () => {
    const dir = project();
    const protection = new ProtectionCache({ racyNs: 0n });
    const tool = createExecuteCommandTool({ ...defaultExecuteCommandEffects, graceMs: 300, protection });
    const fence = new PathFence(dir);
    tool.warm?.({ root: dir, fence });
    expect(protection.counts).toEqual({ scans: 1, hits: 0 });
    const result = await tool.execute(
      { command: 'true' },
      {
        root: dir,
        fence,
        commands: allowAllCommands,
        sandbox: { kind: 'bwrap', path: bwrap as string },
        signal: new AbortController().signal,
      },
    );
    expect(result.ok).toBe(true);
    expect(protection.counts).toEqual({ scans: 1, hits: 1 });
  });
});
