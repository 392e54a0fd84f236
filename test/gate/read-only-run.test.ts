// A read-only command needs no checkpoint (issue 34) — because the sandbox, not the parser, makes it
// read-only: the gate takes no checkpoint for a command judged read-only, and that command runs with
// the whole project mounted read-only, so a misjudged one fails instead of changing files undo
// cannot see. A command that writes keeps its checkpoint and its writable project.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readOnlyRun } from '../../src/gate/read-only-run';
import type { CallFacts } from '../../src/policy/facts';
import type { CommandGuard } from '../../src/policy/command/command-types';
import { createExecuteCommandTool, defaultExecuteCommandEffects } from '../../src/tools/exec/execute-command';
import { findOnPath } from '../../src/tools/exec/sandbox';
import { createGateHarness, type GateHarness } from '../helpers/gate-harness';

const bwrap = process.platform === 'linux' ? findOnPath('bwrap') : undefined;
const tool = createExecuteCommandTool({ ...defaultExecuteCommandEffects, graceMs: 300 });

let h: GateHarness | undefined;
afterEach(() => h?.cleanup());

function withCheckpoints(options: { commands?: CommandGuard } = {}) {
  const taken: string[] = [];
  h = createGateHarness({
    tools: [tool],
    sandbox: bwrap ? { kind: 'bwrap', path: bwrap } : { kind: 'none', reason: 'no bwrap here' },
    ...options,
  });
  const checkpoint = async (label: string, ahead?: boolean) => {
    taken.push(ahead ? `ahead ${label}` : label);
  };
  return { h, taken, checkpoint };
}

describe.skipIf(!bwrap)('a command judged read-only (sandboxed)', () => {
  it('runs without a checkpoint, and sees the project', async () => {
    const { h, taken, checkpoint } = withCheckpoints();
    writeFileSync(join(h.root, 'a.txt'), 'hello\n');
    const result = await h.call('execute_command', { command: 'cat a.txt' }, { checkpoint });
    expect(result.status).toBe('executed');
    expect(JSON.stringify(result)).toContain('hello');
    expect(JSON.stringify(result)).toContain('the project read-only');
    expect(taken).toEqual([]);
  });

  it('takes the turn checkpoint ahead once, after the result, for the first changing call to come', async () => {
    const { h, taken, checkpoint } = withCheckpoints();
    const caller = h.caller({ checkpoint });
    for (const command of ['ls', 'ls -la'])
      expect(
        (await h.gate.intercept({ id: command, tool: 'execute_command', args: { command } }, caller)).status,
      ).toBe('executed');
    await vi.waitFor(() => expect(taken).toEqual(['ahead execute_command']));
  });

  it('cannot write the project even when the judge is wrong', async () => {
    // A judge that calls everything read-only: the mount, not the verdict, keeps the files as they were.
    const wrong: CommandGuard = {
      judge: () => ({
        kind: 'ok',
        parts: [{ text: 'it', argv: ['echo'], readOnly: true }],
        readOnly: true,
        destructive: [],
        notes: [],
      }),
    };
    const { h, taken, checkpoint } = withCheckpoints({ commands: wrong });
    mkdirSync(join(h.root, 'src'));
    writeFileSync(join(h.root, 'src', 'keep.txt'), 'kept\n');
    const result = await h.call(
      'execute_command',
      { command: 'echo gone > src/keep.txt; touch made.txt; mkdir dir; rm -f src/keep.txt' },
      { checkpoint },
    );
    expect(taken).toEqual([]);
    expect(result.status).toBe('executed');
    expect(readFileSync(join(h.root, 'src', 'keep.txt'), 'utf8')).toBe('kept\n');
    expect(existsSync(join(h.root, 'made.txt'))).toBe(false);
    expect(existsSync(join(h.root, 'dir'))).toBe(false);
    expect(JSON.stringify(result)).toMatch(/Read-only file system/);
  });

  it('still masks the credential files', async () => {
    // The tool itself, as the gate runs it (`cat .env` would ask at the gate: it reads a credential).
    const { h } = withCheckpoints();
    writeFileSync(join(h.root, '.env'), 'TOKEN=ro-run-secret-4c1d\n');
    const ctx = { root: h.root, fence: h.fence, commands: h.deps.commands, sandbox: h.deps.sandbox };
    const result = await tool.execute(
      { command: 'cat .env; echo end' },
      { ...ctx, signal: new AbortController().signal, readOnlyProject: true },
    );
    expect(result.ok && result.output).toContain('end');
    expect(JSON.stringify(result)).not.toContain('ro-run-secret-4c1d');
  });

  it('a command that writes keeps its checkpoint and its writable project', async () => {
    const { h, taken, checkpoint } = withCheckpoints();
    const result = h.call('execute_command', { command: 'touch made.txt' }, { checkpoint });
    const request = await h.nextRequest();
    h.gate.decide(request.id, { kind: 'approve' });
    expect((await result).status).toBe('executed');
    expect(taken).toContain('execute_command');
    expect(existsSync(join(h.root, 'made.txt'))).toBe(true);
  });
});

describe('readOnlyRun', () => {
  const facts = (over: Partial<CallFacts> = {}): CallFacts => ({
    tool: 'execute_command',
    kind: 'execute',
    args: { command: 'ls' },
    paths: [],
    sandboxed: true,
    command: {
      kind: 'ok',
      parts: [{ text: 'ls', argv: ['ls'], readOnly: true }],
      readOnly: true,
      destructive: [],
      notes: [],
    },
    ...over,
  });
  const sandbox = { kind: 'bwrap', path: '/usr/bin/bwrap' } as const;
  it.each([
    ['a read-only command in the sandbox', tool, facts(), sandbox, undefined, true],
    ['no sandbox to enforce it', tool, facts(), { kind: 'none', reason: 'x' } as const, undefined, false],
    ['facts say unsandboxed', tool, facts({ sandboxed: false }), sandbox, undefined, false],
    ['a card lifted a protected path', tool, facts(), sandbox, ['/p/.git'], false],
    [
      'a part that writes',
      tool,
      facts({
        command: {
          kind: 'ok',
          parts: [{ text: 'touch x', argv: ['touch', 'x'], readOnly: false }],
          readOnly: false,
          destructive: [],
          notes: [],
        },
      }),
      sandbox,
      undefined,
      false,
    ],
    [
      'a command the guard cannot judge',
      tool,
      facts({ command: { kind: 'cannot_judge', reason: 'x' } as never }),
      sandbox,
      undefined,
      false,
    ],
    [
      'a tool that does not honour the read-only mount',
      { ...tool, readOnlyWhenJudged: undefined },
      facts(),
      sandbox,
      undefined,
      false,
    ],
  ])('%s', (_label, t, f, s, lift, expected) => {
    expect(readOnlyRun(t, f, s, lift)).toBe(expected);
  });
});
