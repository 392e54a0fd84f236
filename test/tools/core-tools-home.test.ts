import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findOnPath } from '../../src/tools/exec/sandbox';
import { createCoreTools } from '../../src/tools/index';
import type { AnyTool } from '../../src/tools/types';
import { makeToolContext, type TestToolContext } from '../helpers/tool-context';

// WARDEN_HOME may be the default ~/.warden with no variable set: the session passes the resolved home,
// and commands must not read it (its audit log holds every argument the model ever sent).
const bwrap = findOnPath('bwrap');
let t: TestToolContext;
let home: string | undefined;
afterEach(() => {
  t?.cleanup();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe.runIf(bwrap !== undefined)('commands do not see the resolved WARDEN_HOME', () => {
  it.each([
    ['the home given to createCoreTools is hidden', true, ''],
    ['control: without it, the same file is readable', false, 'secret-audit-line'],
  ])('%s', async (_label, passHome, expected) => {
    t = makeToolContext({ sandbox: { kind: 'bwrap', path: bwrap as string } });
    // Inside the project, where commands see files: outside it the sandbox shows nothing of the host anyway.
    home = join(t.root, 'wh');
    mkdirSync(home);
    mkdirSync(join(home, 'audit'));
    writeFileSync(join(home, 'audit', 'audit.jsonl'), 'secret-audit-line\n');
    const saved = process.env.WARDEN_HOME;
    delete process.env.WARDEN_HOME;
    try {
      const tool = (passHome ? createCoreTools(home as string) : createCoreTools()).find(
        (x) => x.name === 'execute_command',
      ) as AnyTool;
      const result = await tool.execute(
        { command: `cat ${join(home as string, 'audit', 'audit.jsonl')} 2>/dev/null; true` },
        t.ctx,
      );
      const out = result.ok ? result.output : result.error;
      if (expected) expect(out).toContain(expected);
      else expect(out).not.toContain('secret-audit-line');
    } finally {
      if (saved !== undefined) process.env.WARDEN_HOME = saved;
    }
  });
});
